//! Stage 2 of the ranked search: run rg and fold what it prints into
//! per-file tallies ([`Fold`]), with rg's exit status read and its
//! warnings passed on. A multi-word query with no literal hit is run again
//! as "any of its words" (the fallback).
//!
//! rg is read through its plain `-n --null` records, with match spans found
//! by a [`Matcher`], or through its `--json` events where plain output
//! cannot serve (an explicitly named binary file, `RIPGREP_CONFIG_PATH`,
//! a line that is not a record) or where `SCOUT_RG_OUTPUT=json` asks for
//! them. Both paths fold into the same tallies, so they print the same
//! page.

use std::io::Write;

use anyhow::{bail, Result};

use crate::exit::ExitStatus;
use crate::render::scope::plural;
use crate::rg::{
    run_plain, run_streaming, Flow, Matcher, Record, RecordReader, RgOutcome, SearchFlags,
};
use crate::search::fold::{Fold, FoldOptions};
use crate::search::rank::Scorer;
use crate::search::settings::SearchSettings;
use crate::shell;

/// What rg's pass over the tree left: the fold, the flags that produced
/// it (the fallback's, when it ran), the sentence announcing a fallback,
/// and a partial status when rg could not search everything.
pub struct Collected<'s> {
    pub fold: Fold<'s>,
    pub flags: SearchFlags,
    pub fallback: Option<String>,
    pub partial: Option<ExitStatus>,
}

/// Runs the planned search; when a multi-word query matched nothing, runs
/// it again for any of its words, case-insensitive.
pub fn collect<'s>(
    settings: &SearchSettings,
    scorer: &'s Scorer,
    err: &mut dyn Write,
) -> Result<Collected<'s>> {
    let query = &settings.query;
    let options = FoldOptions {
        keep: settings.keep,
        plain_cap: settings.budget_bytes.map_or(1 << 20, |b| {
            (b as u64).saturating_mul(2).saturating_add(4096)
        }),
        with_filename: settings.with_filename,
    };
    let mut flags = settings.flags.clone();
    let (mut fold, mut partial) = fold_search(settings, scorer, options, &flags, err)?;
    let mut fallback = None;
    if fold.files.is_empty() && !query.words.is_empty() {
        let looked_for = fallback_words(&query.words);
        flags.patterns = query.words[..looked_for].to_vec();
        flags.fixed_strings = true;
        flags.ignore_case = true;
        flags.word = false;
        let (second, status) = fold_search(settings, scorer, options, &flags, err)?;
        let words = match (looked_for, query.words.len()) {
            (1, 1) => crate::render::quoted(&query.words[0]),
            (n, all) if n == all => format!("any of its {n} words"),
            (1, all) => format!("its first word (of {all})"),
            (n, all) => format!("any of its first {n} words (of {all})"),
        };
        if !query.auto || query.word {
            // An exact request (`-F`, `-w`, `--kind literal`) with no hit
            // is no match, as with rg; what a looser search finds is said.
            if !second.files.is_empty() {
                let lines: u64 = second.files.iter().map(|f| f.hits).sum();
                writeln!(
                    err,
                    "scout: no line has {} as asked; {words}, case-insensitive, {} on {} of {}: scout search {}",
                    crate::render::quoted(&query.text),
                    if looked_for == 1 { "is" } else { "are" },
                    plural(lines, "line", "lines"),
                    plural(second.files.len() as u64, "file", "files"),
                    shell::quote(query.text.as_bytes()),
                )?;
            }
            flags = settings.flags.clone();
        } else {
            if !second.files.is_empty() {
                fallback = Some(format!(
                    "no line has {}; showing lines with {words}, case-insensitive",
                    crate::render::quoted(&query.text),
                ));
            }
            fold = second;
            partial = partial.or(status);
        }
    } else if query.may_be_literal() {
        // `--kind auto` read code as a regex (`a+b`): the text as written
        // is counted too, and wins when the regex matched nothing.
        let mut literal = flags.clone();
        literal.fixed_strings = true;
        let (second, status) = fold_search(settings, scorer, options, &literal, err)?;
        let lines: u64 = second.files.iter().map(|f| f.hits).sum();
        if fold.files.is_empty() && lines > 0 {
            fallback = Some(format!(
                "as a regex, {} matches no line; showing the lines that hold it as written (-F)",
                crate::render::quoted(&query.text),
            ));
            fold = second;
            flags = literal;
            partial = partial.or(status);
        } else if lines > 0 {
            fallback = Some(format!(
                "read as a regex; as written, {} is on {} of {}: scout search -F {}",
                crate::render::quoted(&query.text),
                plural(lines, "line", "lines"),
                plural(second.files.len() as u64, "file", "files"),
                shell::quote(query.text.as_bytes()),
            ));
        }
    }
    Ok(Collected {
        fold,
        flags,
        fallback,
        partial,
    })
}

/// Words the multi-word fallback looks for, at most, and their bytes at
/// most (the first word is always looked for): a pasted paragraph's
/// hundreds would make the rg commands the page prints whole (`repro:`,
/// the lines not quoted) outgrow its budget.
const FALLBACK_WORDS: usize = 16;
/// See [`FALLBACK_WORDS`].
const FALLBACK_BYTES: usize = 256;

/// How many of `words` (the query's, in order) the fallback looks for.
fn fallback_words(words: &[String]) -> usize {
    let mut bytes = 0;
    let fit = words
        .iter()
        .take(FALLBACK_WORDS)
        .take_while(|w| {
            bytes += w.len();
            bytes <= FALLBACK_BYTES
        })
        .count();
    fit.max(1).min(words.len())
}

/// One rg pass folded: through plain records when a matcher can find the
/// spans, else (or when the records cannot serve) through `--json`.
fn fold_search<'s>(
    settings: &SearchSettings,
    scorer: &'s Scorer,
    options: FoldOptions,
    flags: &SearchFlags,
    err: &mut dyn Write,
) -> Result<(Fold<'s>, Option<ExitStatus>)> {
    if settings.plain_records {
        if let Some(folded) = fold_records(settings, scorer, options, flags, err)? {
            return Ok(folded);
        }
    }
    let respan = if flags.word {
        Matcher::new(flags)
    } else {
        None
    };
    let mut fold = Fold::new(scorer, options).respanned(respan);
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
/// bytes of `--json`, with spans found by a [`Matcher`]. `None` sends the
/// search to `--json`: when an explicitly named binary file matched, whose
/// lines (and so counts) only `--json` gives, when a line was not an rg
/// record at all (an rg whose format differs, or not rg), or when the
/// pattern does not compile here as rg would read it.
///
/// The matcher is compiled when the first record arrives, not before rg
/// starts: its ~0.1 ms then overlaps rg's own start, and a search with no
/// match never compiles it.
fn fold_records<'s>(
    settings: &SearchSettings,
    scorer: &'s Scorer,
    options: FoldOptions,
    flags: &SearchFlags,
    err: &mut dyn Write,
) -> Result<Option<(Fold<'s>, Option<ExitStatus>)>> {
    let mut fold = Fold::new(scorer, options);
    let mut reader = RecordReader::default();
    let mut matcher: Option<Option<Matcher>> = None;
    let mut complete = true;
    let outcome = run_plain(&settings.rg, &flags.records(), |line| {
        // A record read from one line has no newline in its path: only
        // one joined from pieces is looked through for one.
        let pieces = reader.holds_pieces();
        if let Some(record) = reader.feed(line) {
            complete = !(pieces && is_garbage(&record))
                && match matcher.get_or_insert_with(|| Matcher::new(flags)) {
                    Some(matcher) => fold.push_record(record, matcher),
                    None => false,
                };
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

/// Whether a record joined from several lines (a path with a newline)
/// names no file: then a line of garbage came before a real record and
/// would have become part of its path; `--json` reads it apart.
fn is_garbage(record: &Record<'_>) -> bool {
    use std::os::unix::ffi::OsStrExt;
    match record {
        Record::Line { path, .. } if path.contains(&b'\n') => {
            std::fs::symlink_metadata(std::ffi::OsStr::from_bytes(path)).is_err()
        }
        _ => false,
    }
}

/// Warns about what rg said on stderr and maps its exit code. A search rg
/// refused before reading a file is bad input, never "no match" nor a
/// partial page: a regex it cannot compile (with a hint to use `-F`
/// when the text reads like a literal), a line break in the pattern, an
/// unknown file type, a malformed glob. A file it could not read is a
/// warning, and the page holds the rest (exit 3).
pub fn check_rg(
    settings: &SearchSettings,
    outcome: &RgOutcome,
    err: &mut dyn Write,
) -> Result<Option<ExitStatus>> {
    let patterns = if settings.flags.fixed_strings {
        Vec::new()
    } else {
        settings.flags.patterns.clone()
    };
    if let Some(reason) = outcome.regex_error(&patterns) {
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
    if let Some(reason) = outcome.rejection(&settings.flags.patterns) {
        if let Some(refusal) = crate::rg::newline_refusal(&reason) {
            bail!("{refusal}\n{MULTILINE_ADVICE}");
        }
        bail!("rg refused the search:\n{reason}");
    }
    if outcome.unparsed > 0 {
        writeln!(
            err,
            "scout: {} lines of rg output could not be read",
            outcome.unparsed
        )?;
    }
    if let Some(why) = outcome.nothing_searched() {
        bail!("{why}");
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

/// What scout search offers for a pattern that spans lines (it has no
/// `--multiline`, which rg's own message advises).
pub const MULTILINE_ADVICE: &str = "scout search matches one line at a time: search for one of the lines, or, for a pattern spanning lines, use scout grep -U PATTERN --output-mode content";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fallback_looks_for_the_first_words_that_fit() {
        let words = |n: usize, len: usize| -> Vec<String> {
            (0..n).map(|i| format!("{i:0len$}")).collect()
        };
        assert_eq!(fallback_words(&words(3, 4)), 3);
        assert_eq!(fallback_words(&words(40, 4)), FALLBACK_WORDS);
        assert_eq!(fallback_words(&words(3, 200)), 1, "the bytes bound it too");
        assert_eq!(
            fallback_words(&words(2, 300)),
            1,
            "the first is always looked for"
        );
    }
}
