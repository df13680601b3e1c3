//! The changes of a structural edit (`--structural PATTERN --rewrite
//! TEMPLATE`): the files `scout search --structural` lists (the same
//! `rg --files` with the same selection), of the pattern's language,
//! parsed once each on every core; with `--callers-of` / `--impact`, only
//! the matches that are calls the code graph attributes
//! ([`callers::scope`], judged by [`FileCalls`] as the search judges
//! them), so that a scoped rewrite changes exactly the calls the search
//! keeps, never another call on the same line.

use std::io::Write;

use anyhow::{bail, Result};

use super::change::{self, FileChange, FileStamp};
use super::Planned;
use crate::paths::path_of;
use crate::search::callers;
use crate::search::settings::SearchSettings;
use crate::search::structural::{call_lines, list_files, CallFilter, FileCalls};
use crate::structural::rewrite::{apply, Template};
use crate::structural::{Keep, MatchSpan};

/// Finds every match, scoped when the search has a graph request, and
/// computes each file's new bytes.
pub fn plan(search: &SearchSettings, template: &Template, err: &mut dyn Write) -> Result<Planned> {
    let pattern = search
        .structural
        .as_ref()
        .expect("a structural edit has its pattern");
    let mut scope = match &search.graph {
        Some(request) => Some(callers::scope(search, request)?),
        None => None,
    };
    let only: Option<CallFilter> = scope.as_ref().map(|s| s.attributed.clone());
    let (paths, partial) = list_files(search, pattern.lang(), only.as_ref(), err)?;
    if partial.is_some() {
        bail!("some paths could not be walked (said above): an edit changes all its matches or none; exclude them with -g '!PATH' or name the paths to edit");
    }
    let lang = pattern.lang();
    let results = crate::workers::map_on_cores(&paths, |path| {
        let sites = only.as_ref().and_then(|o| o.get(path));
        one_file(path, lang, pattern, template, sites.map(Vec::as_slice))
    });
    let mut files = Vec::new();
    let mut claimed = 0;
    for result in results {
        if let Some((file, lines)) = result? {
            files.push(file);
            claimed += lines;
        }
    }
    if let (Some(scope), Some(only)) = (scope.as_mut(), &only) {
        // Lines, as the search counts them: a line holding two calls is one.
        scope.not_matched = call_lines(only).saturating_sub(claimed);
    }
    Ok(Planned {
        files,
        scope,
        ..Planned::default()
    })
}

/// One file's change, and how many attributed lines its matches claimed
/// (with `sites`, the file's attributed calls: only the matches that are
/// those calls are rewritten, as the search keeps them); `None` when
/// nothing in it matched (or it is not UTF-8 or holds a NUL byte: as the
/// search, the edit does not parse those).
fn one_file(
    path: &[u8],
    lang: crate::lang::Lang,
    pattern: &crate::structural::StructuralPattern,
    template: &Template,
    sites: Option<&[crate::graph::Site]>,
) -> Result<Option<(FileChange, u64)>> {
    let shown = path_of(path);
    let Some(stamp) = FileStamp::of(&shown) else {
        return Ok(None);
    };
    let Ok(bytes) = std::fs::read(&shown) else {
        return Ok(None);
    };
    if memchr::memchr(0, &bytes).is_some() {
        return Ok(None);
    }
    let Ok(source) = String::from_utf8(bytes) else {
        return Ok(None);
    };
    let calls = sites.map(|sites| FileCalls::new(sites, source.as_bytes(), pattern));
    let admits = |found: &MatchSpan| calls.as_ref().is_none_or(|c| c.admits(found));
    let keep: Keep<'_> = calls.is_some().then_some(&admits);
    let rewritten = pattern.rewrite(&source, template, keep, true);
    if rewritten.found.is_empty() {
        return Ok(None);
    }
    let after = apply(source.as_bytes(), &rewritten.splices);
    let mut match_lines: Vec<u64> = rewritten.found.iter().map(|f| f.line).collect();
    match_lines.dedup();
    let real = std::fs::canonicalize(&shown)?;
    let claimed = calls.as_ref().map_or(0, FileCalls::claimed);
    Ok(Some((
        FileChange {
            path: path.to_vec(),
            real,
            lang: Some(lang),
            hunks: change::hunks(source.as_bytes(), &after),
            after,
            stamp,
            defs: rewritten.defs.unwrap_or_default(),
            matches: rewritten.found.len() as u64,
            rewritten: rewritten.splices.len() as u64,
            left_alone: rewritten.overlapped,
            match_lines,
            before: source.into_bytes(),
        },
        claimed,
    )))
}
