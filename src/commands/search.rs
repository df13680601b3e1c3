//! `scout search`: the ranked view.
//!
//! Plans the query, folds rg's output into per-file tallies (its plain
//! `-n --null` records with match spans found by a [`Matcher`], or its
//! `--json` events where plain output cannot serve), ranks, lays out pages,
//! and renders one. Keeps the invariants of DESIGN.md:
//! passthrough for patterns without an anchor (I1), never larger than
//! plain `rg -n` (I2), rg's exact counts (I3), byte-identical quotes (I4),
//! deterministic output (I5), everything accounted for (I6).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::defs::cache::DefsCache;
use crate::defs::Def;
use crate::exit::ExitStatus;
use crate::fold::{
    cut_around, strip_terminator, FileTally, Fold, FoldOptions, PlainLine, Quote, MAX_QUOTE_BYTES,
};
use crate::group::{attachable, group, Group};
use crate::lang::Lang;
use crate::page::{chosen_quotes, layout, omitted, PageSpan};
use crate::query::Query;
use crate::rank::{rank, Ranked, Scorer, DEF_FILE, LINE_DEF, WEAK_DEF_FILE};
use crate::render::{self, Code, Report};
use crate::rg::{
    run_plain, run_streaming, Flow, Matcher, Record, RecordReader, RgOutcome, SearchFlags,
};
use crate::session::{self, Memory, Shown, Stamp};
use crate::settings::SearchSettings;
use crate::shell;

/// Lines a file may quote when `-m` is not given: more for the top files;
/// past them, a file that defines the name shows its definition line alone,
/// so that a name defined in dozens of files gets them onto one page.
fn default_allowance(rank: usize, defines: bool) -> usize {
    match (rank < 5, defines) {
        (true, _) => 3,
        (false, true) => 1,
        (false, false) => 2,
    }
}

/// Runs a search, writing the page to `out` and warnings to `err`.
pub fn run(
    settings: &SearchSettings,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let started = Instant::now();
    if settings.forget {
        let Some(session) = &settings.session else {
            bail!("--forget: no agent session (set SCOUT_SESSION_ID, CLAUDE_CODE_SESSION_ID or CODEX_THREAD_ID)");
        };
        let forgot = session.clear().context("clearing the session memory")?;
        if settings.query.text.is_empty() {
            writeln!(
                out,
                "{} session {}",
                if forgot {
                    "forgot what was shown in"
                } else {
                    "nothing remembered for"
                },
                session.id
            )?;
            return Ok(ExitStatus::Shown);
        }
    }
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
    // With a matcher, rg's lines come as records, so that a line too long
    // for what is left of the cap can be cut around its match instead of
    // ending the output (one 1 MB line would otherwise show nothing).
    let matcher = Matcher::new(&settings.flags).filter(|_| !crate::rg::config_in_effect());
    let command = match &matcher {
        Some(_) => settings.flags.sorted_records(),
        None => settings.flags.plain(),
    };
    let cap = settings.passthrough_cap.unwrap_or(u64::MAX);
    // Bytes printed and in all; matching lines shown, cut and in all (rg's
    // warnings about binary files it stopped reading are lines of its
    // output, not matches).
    let (mut printed, mut total) = (0u64, 0u64);
    let (mut shown, mut cut, mut matching) = (0u64, 0u64, 0u64);
    let mut full = false;
    let mut reader = RecordReader::default();
    let mut spans = Vec::new();
    let mut write_error = None;
    let outcome = run_plain(&settings.rg, &command, |line| {
        let (piece, is_match) = match &matcher {
            None => (Piece::Raw(line), !crate::rg::is_stopped_notice(line)),
            Some(_) => match reader.feed(line) {
                None => return Flow::Continue,
                Some(Record::Line { path, number, text }) => {
                    let path = if settings.with_filename { path } else { b"" };
                    (Piece::Line { path, number, text }, true)
                }
                Some(Record::BinaryStopped { .. }) => (Piece::Raw(line), false),
                Some(Record::BinaryMatches { .. }) => (Piece::Raw(line), true),
            },
        };
        let whole = piece.len();
        total += whole;
        matching += u64::from(is_match);
        if full || write_error.is_some() {
            return Flow::Continue;
        }
        let written = if whole <= cap - printed {
            piece.write(out).map(|()| whole)
        } else {
            match matcher.as_ref().and_then(|m| piece.cut(m, &mut spans)) {
                Some(short) if short.len() as u64 <= cap - printed => {
                    cut += 1;
                    out.write_all(&short).map(|()| short.len() as u64)
                }
                _ => {
                    full = true;
                    return Flow::Continue;
                }
            }
        };
        match written {
            Ok(bytes) => {
                printed += bytes;
                shown += u64::from(is_match);
                Flow::Continue
            }
            Err(e) => {
                write_error = Some(e);
                Flow::Stop
            }
        }
    })?;
    if let Some(e) = write_error {
        return Err(e).context("writing the output");
    }
    let partial = check_rg(settings, &outcome, err)?;
    if printed < total {
        let cut_note = if cut > 0 {
            format!(", {cut} of them cut to {MAX_QUOTE_BYTES} bytes around the match")
        } else {
            String::new()
        };
        writeln!(
            err,
            "scout: no literal anchor of 3+ characters, so rg's lines are shown unranked; \
             cut at {cap} bytes: {shown} of {matching} matching lines ({printed} of {total} bytes) shown{cut_note}. \
             All of them: {} (or --passthrough-cap 0)",
            settings.flags.repro()
        )?;
    }
    Ok(partial.unwrap_or(if matching > 0 {
        ExitStatus::Shown
    } else {
        ExitStatus::NoMatch
    }))
}

/// One line of passthrough output: as rg printed it, or a record to print
/// as `rg -n` would (`PATH:LINE:TEXT`, `LINE:TEXT` with no path).
enum Piece<'a> {
    Raw(&'a [u8]),
    Line {
        path: &'a [u8],
        number: u64,
        text: &'a [u8],
    },
}

impl Piece<'_> {
    fn head(path: &[u8], number: u64) -> Vec<u8> {
        let mut out = path.to_vec();
        if !path.is_empty() {
            out.push(b':');
        }
        out.extend_from_slice(format!("{number}:").as_bytes());
        out
    }

    /// Bytes of the line as `rg -n` prints it.
    fn len(&self) -> u64 {
        match self {
            Piece::Raw(line) => line.len() as u64,
            Piece::Line { path, number, text } => {
                let path = if path.is_empty() { 0 } else { path.len() + 1 };
                (path + number.to_string().len() + 1 + text.len()) as u64
                    + u64::from(!text.ends_with(b"\n"))
            }
        }
    }

    fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        match self {
            Piece::Raw(line) => out.write_all(line),
            Piece::Line { path, number, text } => {
                out.write_all(&Piece::head(path, *number))?;
                out.write_all(text)?;
                if !text.ends_with(b"\n") {
                    out.write_all(b"\n")?;
                }
                Ok(())
            }
        }
    }

    /// The line cut to [`MAX_QUOTE_BYTES`] around its first match, marked
    /// as on a ranked page; `None` when it is short or not a record.
    fn cut(&self, matcher: &Matcher, spans: &mut Vec<(usize, usize)>) -> Option<Vec<u8>> {
        let Piece::Line { path, number, text } = self else {
            return None;
        };
        let body = strip_terminator(text);
        spans.clear();
        matcher.spans(body, spans);
        let (window, cut_before, cut_after) =
            cut_around(body, spans.first().copied().unwrap_or((0, 0)));
        let quote = Quote {
            line: *number,
            text: window.to_vec(),
            cut_before,
            cut_after,
            ..Quote::default()
        };
        if quote.cut_bytes() == 0 {
            return None;
        }
        let mut out = Piece::head(path, *number);
        render::text::quote_text(&mut out, &quote);
        Some(out)
    }
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
    let mut ranked = rank(&scorer, files);

    let repro = flags.repro();
    let file_command = format!(
        "{} FILE",
        SearchFlags {
            paths: Vec::new(),
            ..flags.clone()
        }
        .repro()
    );
    let reserve = render::text::reserve(&render::text::Frame {
        query: &query.text,
        fallback: fallback.as_deref(),
        repro: &repro,
        file_command: &file_command,
        command: &settings.command,
        def_paths: ranked
            .iter()
            .filter(|r| r.tally.def_lines > 0)
            .map(|r| &r.tally.path[..])
            .collect(),
    });
    let allowance = |i: usize| {
        if settings.files_only || ranked[i].tally.binary {
            0
        } else {
            settings
                .max_lines
                .unwrap_or_else(|| default_allowance(i, ranked[i].tally.def_lines > 0))
                .min(ranked[i].tally.quotes.len())
        }
    };
    // Headings of enclosing definitions are added after layout (parsing
    // every file to lay out every page would cost too much): keep a share
    // of the budget for them.
    let body_bytes = settings.budget_bytes.map(|b| {
        b.saturating_sub(reserve) * (100 - if settings.lexical { 0 } else { HEADINGS_SHARE }) / 100
    });
    let mut pages = layout(ranked.len(), body_bytes, allowance, |i, lines| {
        render::text::file_block_len(&ranked[i].tally, &ranked[i].score, lines, settings.explain)
    });
    if settings.page > pages.len() {
        bail!(
            "there is no page {}: this search has {} page{} (try --page 1)",
            settings.page,
            pages.len(),
            if pages.len() == 1 { "" } else { "s" }
        );
    }
    let index = settings.page - 1;
    let memory = match (&settings.session, settings.again) {
        (Some(session), false) => {
            let loaded = session.load();
            if let Some(warning) = loaded.warning {
                writeln!(err, "scout: {warning}")?;
            }
            Some(loaded.memory)
        }
        _ => None,
    };
    let defs = if settings.files_only || settings.lexical {
        Vec::new()
    } else {
        let defs = parse_page(settings, &ranked, &pages[index]);
        if let Some(name) = &query.name {
            for (slot, file_defs) in pages[index].slots.iter().zip(&defs) {
                apply_parser(&mut ranked[slot.file], file_defs, name);
            }
            reorder(&ranked, &mut pages[index], &defs)
        } else {
            defs
        }
    };
    // Headings were not counted when the page was laid out: where they
    // push it past the budget, quote fewer lines of its last files (the
    // page keeps its files, so other pages are unaffected).
    let parts = Parts {
        query,
        fallback,
        hits,
        matches,
        ranked: &ranked,
        repro,
        file_command,
        defs: &defs,
    };
    if let Some(budget) = settings.budget_bytes {
        for _ in 0..MAX_TRIMS {
            let seen = seen_lines(settings, &ranked, &pages[index], &memory);
            // The time-independent estimate: the bytes would include the
            // elapsed milliseconds and make the cut depend on timing.
            let page = render::text::page(&parts.report(settings, started, &pages, index, seen));
            if page.tokens * crate::page::BYTES_PER_TOKEN <= budget {
                break;
            }
            let Some(slot) = pages[index].slots.iter_mut().rev().find(|s| s.lines > 1) else {
                break;
            };
            slot.lines -= 1;
        }
    }
    let seen = seen_lines(settings, &ranked, &pages[index], &memory);
    let mut report = parts.report(settings, started, &pages, index, seen);
    let render::text::Page {
        bytes: text,
        tokens,
    } = render::text::page(&report);
    let mut shown: Vec<Shown> = Vec::new();
    report.code = attach_code(
        &report,
        settings.budget_bytes.map(|b| b.saturating_sub(text.len())),
    );
    let code = render::text::code(&report.code);
    if settings.json {
        let document = render::json::document(&report, tokens);
        render::json::write_document(out, &document)?;
        shown = shown_on_page(settings, &report);
    } else if ranked.is_empty() {
        // Nothing matched: say so on stderr, print nothing on stdout.
    } else if !settings.files_only && !settings.explain && text.len() as u64 > plain.bytes {
        // I2: rg's own lines are smaller than the page; print them.
        if let Some(fallback) = &report.fallback {
            writeln!(err, "scout: {fallback}")?;
        }
        if let Some(lines) = plain.into_sorted_lines() {
            write_plain(out, &lines, settings.with_filename)?;
            out.write_all(&code)?;
            shown = shown_in_plain(settings, &lines);
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
            out.write_all(&code)?;
        }
    } else {
        out.write_all(&text)?;
        out.write_all(&code)?;
        shown = shown_on_page(settings, &report);
    }
    if let (Some(session), true) = (&settings.session, settings.remember) {
        if let Some(warning) = session.record(&shown) {
            writeln!(err, "scout: {warning}")?;
        }
    }
    if ranked.is_empty() && partial.is_none() {
        return Ok(ExitStatus::NoMatch);
    }
    Ok(partial.unwrap_or(ExitStatus::Shown))
}

/// The absolute path session memory keys a file by: the working directory
/// joined with rg's path (no symlinks resolved: no system call per file).
fn memory_key(cwd: &std::path::Path, path: &[u8]) -> String {
    let path = path_of(path);
    let path = path.strip_prefix("./").unwrap_or(&path);
    cwd.join(path).to_string_lossy().into_owned()
}

/// Per slot of `span`: the chosen lines the session was already shown
/// from the file as it is now.
fn seen_lines(
    settings: &SearchSettings,
    ranked: &[Ranked],
    span: &PageSpan,
    memory: &Option<Memory>,
) -> Vec<Vec<u64>> {
    let Some(memory) = memory else {
        return Vec::new();
    };
    span.slots
        .iter()
        .map(|slot| {
            let tally = &ranked[slot.file].tally;
            let key = memory_key(&settings.cwd, &tally.path);
            if !memory.files.contains_key(&key) {
                return Vec::new();
            }
            let Some(ranges) =
                Stamp::of(&path_of(&tally.path)).and_then(|now| memory.seen(&key, now))
            else {
                return Vec::new();
            };
            chosen_quotes(tally, slot.lines)
                .into_iter()
                .map(|q| q.line)
                .filter(|&line| session::contains(ranges, line))
                .collect()
        })
        .collect()
}

/// What a page quoted, for the session memory.
fn shown_on_page(settings: &SearchSettings, report: &Report<'_>) -> Vec<Shown> {
    report
        .span()
        .slots
        .iter()
        .filter_map(|slot| {
            let tally = &report.ranked[slot.file].tally;
            let lines: Vec<u64> = chosen_quotes(tally, slot.lines)
                .into_iter()
                .map(|q| q.line)
                .collect();
            if lines.is_empty() {
                return None;
            }
            Some(Shown {
                path: memory_key(&settings.cwd, &tally.path),
                stamp: Stamp::of(&path_of(&tally.path))?,
                lines,
            })
        })
        .collect()
}

/// What rg's plain lines showed, for the session memory.
fn shown_in_plain(settings: &SearchSettings, lines: &[PlainLine]) -> Vec<Shown> {
    let mut shown: Vec<Shown> = Vec::new();
    for line in lines {
        match shown.last_mut() {
            Some(last) if last.path == memory_key(&settings.cwd, &line.path) => {
                last.lines.push(line.number)
            }
            _ => {
                if let Some(stamp) = Stamp::of(&path_of(&line.path)) {
                    shown.push(Shown {
                        path: memory_key(&settings.cwd, &line.path),
                        stamp,
                        lines: vec![line.number],
                    });
                }
            }
        }
    }
    shown
}

/// What a page's report is made of, apart from the page itself.
struct Parts<'a> {
    query: &'a Query,
    fallback: Option<String>,
    hits: u64,
    matches: u64,
    ranked: &'a [Ranked],
    repro: String,
    file_command: String,
    defs: &'a [Vec<Def>],
}

impl<'a> Parts<'a> {
    fn report(
        &self,
        settings: &SearchSettings,
        started: Instant,
        pages: &'a [PageSpan],
        index: usize,
        seen: Vec<Vec<u64>>,
    ) -> Report<'a> {
        Report {
            query: self.query,
            fallback: self.fallback.clone(),
            hits: self.hits,
            matches: self.matches,
            ranked: self.ranked,
            omitted: omitted(self.ranked, &pages[index]),
            pages,
            page: index + 1,
            elapsed_ms: started.elapsed().as_millis() as u64,
            repro: self.repro.clone(),
            file_command: self.file_command.clone(),
            command: settings.command.clone(),
            explain: settings.explain,
            files_only: settings.files_only,
            seen,
            defs: self.defs,
            code: Vec::new(),
        }
    }
}

/// Lines taken off a page at most to bring its headings within budget.
const MAX_TRIMS: usize = 64;

/// Percent of a page's body budget left for definition headings.
const HEADINGS_SHARE: usize = 15;

/// Definitions of the files on a page (aligned with its slots), from the
/// cache or the parser; empty for files without a parser.
/// Source bytes a page may parse, at most, in rank order. Parsing costs
/// about 5-10 ms per 50 KB; this bounds a cold search (nothing cached) at a
/// few tens of milliseconds over a warm one. The files parsed depend only
/// on their sizes, never on the cache, so cold and warm runs print the
/// same page.
const PARSE_BUDGET_BYTES: u64 = 256 * 1024;

/// Definitions of the files on a page (aligned with its slots), from the
/// cache or the parser; empty for files without a parser, and for files
/// past the page's parse budget (they keep the lexical verdict and show
/// their lines without headings).
fn parse_page(settings: &SearchSettings, ranked: &[Ranked], span: &PageSpan) -> Vec<Vec<Def>> {
    let mut budget = PARSE_BUDGET_BYTES;
    let wanted: Vec<(usize, PathBuf, Lang)> = span
        .slots
        .iter()
        .enumerate()
        .filter_map(|(i, slot)| {
            let tally = &ranked[slot.file].tally;
            let lang = tally.lang?;
            if tally.binary || slot.lines == 0 {
                return None;
            }
            let path = path_of(&tally.path);
            let size = std::fs::metadata(&path).ok()?.len();
            if size > budget {
                return None;
            }
            budget -= size;
            Some((i, path, lang))
        })
        .collect();
    let files: Vec<(PathBuf, Lang)> = wanted.iter().map(|(_, p, l)| (p.clone(), *l)).collect();
    let parsed = DefsCache::new(settings.cache_dir.clone()).defs_many(&files);
    let mut defs = vec![Vec::new(); span.slots.len()];
    for ((i, _, _), file_defs) in wanted.into_iter().zip(parsed) {
        defs[i] = file_defs;
    }
    defs
}

fn path_of(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

/// Lets the parser overrule the lexical rules on a shown file: lines the
/// parser says define `name` are definition lines (and are quoted first,
/// read from the file when the fold did not keep them); lexical guesses it
/// contradicts are not. A file the parser could not read keeps the lexical
/// verdict.
fn apply_parser(ranked: &mut Ranked, defs: &[Def], name: &str) {
    if defs.is_empty() {
        return;
    }
    let def_lines = crate::defs::definition_lines(defs, name);
    let tally = &mut ranked.tally;
    for quote in &mut tally.quotes {
        let def = def_lines.contains(&quote.line);
        if def != quote.def {
            quote.score += if def { LINE_DEF } else { -LINE_DEF };
            quote.def = def;
        }
    }
    let missing: Vec<u64> = def_lines
        .iter()
        .copied()
        .filter(|l| !tally.quotes.iter().any(|q| q.line == *l))
        .take(MAX_READ_DEF_LINES)
        .collect();
    if !missing.is_empty() {
        if let Ok(source) = std::fs::read(path_of(&tally.path)) {
            for (number, line) in source.split(|&b| b == b'\n').enumerate() {
                let number = number as u64 + 1;
                if missing.contains(&number) {
                    let body = line.strip_suffix(b"\r").unwrap_or(line);
                    let at = find(body, name.as_bytes()).unwrap_or(0);
                    let (text, cut_before, cut_after) = cut_around(body, (at, at + name.len()));
                    tally.quotes.push(Quote {
                        line: number,
                        text: text.to_vec(),
                        cut_before,
                        cut_after,
                        score: LINE_DEF,
                        def: true,
                    });
                }
            }
        }
    }
    let lexical = lexical_bonus(tally);
    tally.def_lines = def_lines.len() as u64;
    tally.weak_def_lines = 0;
    let parsed = lexical_bonus(tally);
    if parsed != lexical {
        ranked.score.total += parsed - lexical;
        ranked.score.signals.push(("parser-def", parsed - lexical));
    }
}

/// The definition bonus a tally's lexical counts earn.
fn lexical_bonus(tally: &FileTally) -> i64 {
    if tally.def_lines > 0 {
        DEF_FILE
    } else if tally.weak_def_lines > 0 {
        WEAK_DEF_FILE
    } else {
        0
    }
}

/// Definition lines read from a file at most, when the fold kept none.
const MAX_READ_DEF_LINES: usize = 3;

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Orders a page's files by their scores after the parser's corrections
/// (the page keeps the same files), returning their definitions in the new
/// order.
fn reorder(ranked: &[Ranked], span: &mut PageSpan, defs: &[Vec<Def>]) -> Vec<Vec<Def>> {
    let mut order: Vec<usize> = (0..span.slots.len()).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (&ranked[span.slots[a].file], &ranked[span.slots[b].file]);
        rb.score
            .total
            .cmp(&ra.score.total)
            .then_with(|| ra.tally.path.cmp(&rb.tally.path))
    });
    let slots = order.iter().map(|&i| span.slots[i]).collect();
    span.slots = slots;
    order.into_iter().map(|i| defs[i].clone()).collect()
}

/// The code of the definitions holding every match on the page, when there
/// are few and short ones, nothing was left out, and it fits `room` bytes.
fn attach_code(report: &Report<'_>, room: Option<usize>) -> Vec<Code> {
    if report.pages.len() != 1
        || report.omitted.lines > 0
        || report.omitted.files > 0
        || report.files_only
    {
        return Vec::new();
    }
    let span = report.span();
    let quotes: Vec<Vec<&Quote>> = span
        .slots
        .iter()
        .map(|slot| chosen_quotes(&report.ranked[slot.file].tally, slot.lines))
        .collect();
    let groups: Vec<(usize, Vec<Group>)> = quotes
        .iter()
        .enumerate()
        .map(|(i, q)| (i, group(q, report.defs.get(i).map_or(&[][..], |d| &d[..]))))
        .collect();
    let Some(picked) = attachable(&groups) else {
        return Vec::new();
    };
    let mut blocks = Vec::new();
    for (slot, def) in picked {
        let path = &report.ranked[span.slots[slot].file].tally.path;
        let Ok(source) = std::fs::read(path_of(path)) else {
            return Vec::new();
        };
        let lines = source
            .split(|&b| b == b'\n')
            .enumerate()
            .skip(def.start_line as usize - 1)
            .take((def.end_line - def.start_line + 1) as usize)
            .map(|(i, line)| {
                let body = line.strip_suffix(b"\r").unwrap_or(line);
                let (text, cut_before, cut_after) = cut_around(body, (0, 0));
                Quote {
                    line: i as u64 + 1,
                    text: text.to_vec(),
                    cut_before,
                    cut_after,
                    score: 0,
                    def: false,
                }
            })
            .collect();
        blocks.push(Code {
            path: path.clone(),
            def: def.clone(),
            lines,
        });
    }
    let size = render::text::code(&blocks).len();
    if room.is_some_and(|room| size > room) {
        return Vec::new();
    }
    blocks
}

fn fold_search<'s>(
    settings: &SearchSettings,
    scorer: &'s Scorer,
    options: FoldOptions,
    flags: &SearchFlags,
    err: &mut dyn Write,
) -> Result<(Fold<'s>, Option<ExitStatus>)> {
    if let Some(matcher) = Matcher::new(flags).filter(|_| !crate::rg::config_in_effect()) {
        if let Some(folded) = fold_records(settings, scorer, options, flags, &matcher, err)? {
            return Ok(folded);
        }
    }
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

/// The fast path of [`fold_search`]: rg's plain records, a third of the
/// bytes of `--json`, with spans found by `matcher`. `None` sends the
/// search to `--json`: when an explicitly named binary file matched, whose
/// lines (and so counts) only `--json` gives, or when a line was not an rg
/// record at all (an rg whose format differs, or not rg).
fn fold_records<'s>(
    settings: &SearchSettings,
    scorer: &'s Scorer,
    options: FoldOptions,
    flags: &SearchFlags,
    matcher: &Matcher,
    err: &mut dyn Write,
) -> Result<Option<(Fold<'s>, Option<ExitStatus>)>> {
    let mut fold = Fold::new(scorer, options);
    let mut reader = RecordReader::default();
    let mut complete = true;
    let outcome = run_plain(&settings.rg, &flags.records(), |line| {
        if let Some(record) = reader.feed(line) {
            complete = fold.push_record(record, matcher);
        }
        if complete {
            Flow::Continue
        } else {
            Flow::Stop
        }
    })?;
    if !complete || reader.finish() > 0 {
        return Ok(None);
    }
    let status = check_rg(settings, &outcome, err)?;
    Ok(Some((fold, status)))
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
