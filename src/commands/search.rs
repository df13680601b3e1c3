//! `scout search`: the ranked view.
//!
//! Plans the query, folds rg's JSON events into per-file tallies, ranks,
//! lays out pages, and renders one. Keeps the invariants of DESIGN.md:
//! passthrough for patterns without an anchor (I1), never larger than
//! plain `rg -n` (I2), rg's exact counts (I3), byte-identical quotes (I4),
//! deterministic output (I5), everything accounted for (I6).

use std::io::Write;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::exit::ExitStatus;
use crate::fold::{Fold, FoldOptions, PlainLine};
use crate::page::{self, layout, omitted};
use crate::rank::{rank, Scorer};
use crate::render::{self, Report};
use crate::rg::{run_plain, run_streaming, Flow, RgOutcome, SearchFlags};
use crate::settings::SearchSettings;
use crate::shell;

/// Lines a file may quote when `-m` is not given: more for the top files.
fn default_allowance(rank: usize) -> usize {
    if rank < 5 {
        3
    } else {
        2
    }
}

/// Runs a search, writing the page to `out` and warnings to `err`.
pub fn run(
    settings: &SearchSettings,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let started = Instant::now();
    for path in &settings.missing {
        writeln!(
            err,
            "scout: {}: no such file or directory (not searched)",
            shell::quote(path.as_encoded_bytes())
        )?;
    }
    let status = if settings.query.is_passthrough() && !settings.json {
        passthrough(settings, out, err)?
    } else {
        ranked(settings, started, out, err)?
    };
    Ok(
        if settings.missing.is_empty() || status == ExitStatus::Error {
            status
        } else {
            ExitStatus::Partial
        },
    )
}

/// Warns about what rg said on stderr and maps its exit code. A regex that
/// rg cannot compile is bad input, with a hint to use `-F` when the text
/// reads like a literal.
fn check_rg(
    settings: &SearchSettings,
    outcome: &RgOutcome,
    err: &mut dyn Write,
) -> Result<Option<ExitStatus>> {
    if let Some(reason) = outcome.regex_error() {
        let hint = if settings.query.looks_literal() {
            format!(
                "\nhint: to search for the text as written, use -F: scout search -F {}",
                shell::quote(settings.query.text.as_bytes())
            )
        } else {
            String::new()
        };
        bail!("invalid regex {:?}:\n{reason}{hint}", settings.query.text);
    }
    if outcome.unparsed > 0 {
        writeln!(
            err,
            "scout: {} lines of rg output could not be read",
            outcome.unparsed
        )?;
    }
    match outcome.code {
        Some(0 | 1) => Ok(None),
        Some(2) => {
            for line in outcome.stderr_lines() {
                writeln!(err, "scout: {line}")?;
            }
            Ok(Some(ExitStatus::Partial))
        }
        None if outcome.stopped => Ok(None),
        other => {
            let said = outcome.stderr_lines().join("; ");
            bail!("rg failed (exit {other:?}): {said}");
        }
    }
}

fn passthrough(
    settings: &SearchSettings,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let command = settings.flags.plain();
    let cap = settings.passthrough_cap.unwrap_or(u64::MAX);
    let (mut printed, mut lines, mut total, mut total_lines) = (0u64, 0u64, 0u64, 0u64);
    let mut write_error = None;
    let outcome = run_plain(&settings.rg, &command, |line| {
        total += line.len() as u64;
        total_lines += 1;
        if write_error.is_none()
            && printed + line.len() as u64 <= cap
            && printed == total - line.len() as u64
        {
            match out.write_all(line) {
                Ok(()) => {
                    printed += line.len() as u64;
                    lines += 1;
                }
                Err(e) => {
                    write_error = Some(e);
                    return Flow::Stop;
                }
            }
        }
        Flow::Continue
    })?;
    if let Some(e) = write_error {
        return Err(e).context("writing the output");
    }
    let partial = check_rg(settings, &outcome, err)?;
    if lines < total_lines {
        writeln!(
            err,
            "scout: no literal anchor of 3+ characters, so rg's lines are shown unranked; \
             cut at {cap} bytes: {lines} of {total_lines} lines ({printed} of {total} bytes) shown. \
             All of them: {} (or --passthrough-cap 0)",
            settings.flags.repro()
        )?;
    }
    Ok(partial.unwrap_or(if total_lines > 0 {
        ExitStatus::Shown
    } else {
        ExitStatus::NoMatch
    }))
}

fn ranked(
    settings: &SearchSettings,
    started: Instant,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let query = &settings.query;
    let scorer = Scorer::new(query);
    let options = FoldOptions {
        keep: settings.keep,
        plain_cap: settings
            .budget_bytes
            .map_or(1 << 20, |b| 2 * b as u64 + 4096),
        with_filename: settings.with_filename,
    };
    let mut flags = settings.flags.clone();
    let (mut fold, mut partial) = fold_search(settings, &scorer, options, &flags, err)?;
    let mut fallback = None;
    if fold.files.is_empty() && query.words.len() > 1 {
        flags.patterns = query.words.clone();
        flags.fixed_strings = true;
        flags.ignore_case = true;
        flags.word = false;
        let (second, status) = fold_search(settings, &scorer, options, &flags, err)?;
        if !second.files.is_empty() {
            fallback = Some(format!(
                "no line has {:?}; showing lines with any of its {} words, case-insensitive, files with more of them first",
                query.text,
                query.words.len()
            ));
        }
        fold = second;
        partial = partial.or(status);
    }
    let Fold { files, plain, .. } = fold;
    let hits: u64 = files.iter().map(|f| f.hits).sum();
    let matches: u64 = files.iter().map(|f| f.matches).sum();
    let ranked = rank(&scorer, files);

    let repro = flags.repro();
    let file_command = format!(
        "{} FILE",
        SearchFlags {
            paths: Vec::new(),
            ..flags.clone()
        }
        .repro()
    );
    let reserve =
        render::text::reserve(&query.text, &repro, &settings.command, fallback.as_deref());
    let allowance = |i: usize| {
        if settings.files_only || ranked[i].tally.binary {
            0
        } else {
            settings.max_lines.unwrap_or_else(|| default_allowance(i))
        }
    };
    let pages = layout(
        ranked.len(),
        settings.budget_bytes.map(|b| b.saturating_sub(reserve)),
        allowance,
        |i, lines| {
            render::text::file_block_len(
                &ranked[i].tally,
                &ranked[i].score,
                lines,
                settings.explain,
            )
        },
    );
    if settings.page > pages.len() {
        bail!(
            "there is no page {}: this search has {} page{} (try --page 1)",
            settings.page,
            pages.len(),
            if pages.len() == 1 { "" } else { "s" }
        );
    }
    let report = Report {
        query,
        fallback,
        hits,
        matches,
        ranked: &ranked,
        omitted: omitted(&ranked, &pages[settings.page - 1]),
        pages: &pages,
        page: settings.page,
        elapsed_ms: started.elapsed().as_millis() as u64,
        repro,
        file_command,
        command: settings.command.clone(),
        explain: settings.explain,
        files_only: settings.files_only,
    };
    let text = render::text::page(&report);
    if settings.json {
        let document = render::json::document(&report, page::tokens(text.len()));
        render::json::write_document(out, &document)?;
    } else if ranked.is_empty() {
        // Nothing matched: say so on stderr, print nothing on stdout.
    } else if !settings.files_only && !settings.explain && text.len() as u64 > plain.bytes {
        // I2: rg's own lines are smaller than the page; print them.
        if let Some(fallback) = &report.fallback {
            writeln!(err, "scout: {fallback}")?;
        }
        if let Some(lines) = plain.into_sorted_lines() {
            write_plain(out, &lines, settings.with_filename)?;
        } else {
            let mut write_error = None;
            run_plain(&settings.rg, &flags.plain(), |line| {
                match out.write_all(line) {
                    Ok(()) => Flow::Continue,
                    Err(e) => {
                        write_error = Some(e);
                        Flow::Stop
                    }
                }
            })?;
            if let Some(e) = write_error {
                return Err(e).context("writing the output");
            }
        }
    } else {
        out.write_all(&text)?;
    }
    if ranked.is_empty() && partial.is_none() {
        return Ok(ExitStatus::NoMatch);
    }
    Ok(partial.unwrap_or(ExitStatus::Shown))
}

fn fold_search<'s>(
    settings: &SearchSettings,
    scorer: &'s Scorer,
    options: FoldOptions,
    flags: &SearchFlags,
    err: &mut dyn Write,
) -> Result<(Fold<'s>, Option<ExitStatus>)> {
    let mut fold = Fold::new(scorer, options);
    let outcome = run_streaming(&settings.rg, &flags.json(), |event| {
        fold.push(event);
        Flow::Continue
    })?;
    let status = check_rg(settings, &outcome, err)?;
    if fold.summary.is_none() && !outcome.stopped {
        // rg --json always ends with a summary; a binary that printed none
        // is not rg, and its silence must not read as "no matches".
        return Err(crate::rg::RgError::NotRipgrep(
            settings.rg.path.clone(),
            "its --json output had no summary".into(),
        )
        .into());
    }
    Ok((fold, status))
}

/// Writes rg's plain lines: `path:line:text` (or `line:text` when rg would
/// not name the file).
fn write_plain(out: &mut dyn Write, lines: &[PlainLine], with_filename: bool) -> Result<()> {
    let mut buf = Vec::new();
    for PlainLine { path, number, text } in lines {
        if with_filename {
            buf.extend_from_slice(path);
            buf.push(b':');
        }
        write!(buf, "{number}:")?;
        buf.extend_from_slice(text);
    }
    out.write_all(&buf)?;
    Ok(())
}
