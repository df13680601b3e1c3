//! The changes of a structural edit (`--structural PATTERN --rewrite
//! TEMPLATE`): the files `scout search --structural` lists (the same
//! `rg --files` with the same selection), of the pattern's language,
//! parsed once each on every core; with `--callers-of` / `--impact`, only
//! the files and lines the code graph attributes ([`callers::scope`]),
//! so that a scoped rewrite changes exactly the lines the search shows.

use std::io::Write;

use anyhow::{bail, Result};

use super::change::{self, FileChange, FileStamp};
use super::Planned;
use crate::paths::path_of;
use crate::search::callers;
use crate::search::settings::SearchSettings;
use crate::search::structural::{list_files, LineFilter};
use crate::structural::rewrite::{apply, Template};

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
    let only: Option<LineFilter> = scope.as_ref().map(crate::graph::line_filter);
    let (paths, partial) = list_files(search, pattern.lang(), only.as_ref(), err)?;
    if partial.is_some() {
        bail!("some paths could not be walked (said above): an edit changes all its matches or none; exclude them with -g '!PATH' or name the paths to edit");
    }
    let lang = pattern.lang();
    let results = crate::workers::map_on_cores(&paths, |path| {
        let lines = only.as_ref().and_then(|o| o.get(path));
        one_file(path, lang, pattern, template, lines)
    });
    let mut files = Vec::new();
    for result in results {
        if let Some(file) = result? {
            files.push(file);
        }
    }
    if let (Some(scope), Some(only)) = (scope.as_mut(), &only) {
        // Lines, as the search counts them: a line holding two calls is one.
        let matched: u64 = files
            .iter()
            .map(|f: &FileChange| f.match_lines.len() as u64)
            .sum();
        let lines: u64 = only.values().map(|l| l.len() as u64).sum();
        scope.not_matched = lines.saturating_sub(matched);
    }
    Ok(Planned {
        files,
        scope,
        ..Planned::default()
    })
}

/// One file's change; `None` when nothing in it matched (or it is not
/// UTF-8 or holds a NUL byte: as the search, the edit does not parse
/// those).
fn one_file(
    path: &[u8],
    lang: crate::lang::Lang,
    pattern: &crate::structural::StructuralPattern,
    template: &Template,
    lines: Option<&std::collections::BTreeSet<u64>>,
) -> Result<Option<FileChange>> {
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
    let rewritten = pattern.rewrite(
        &source,
        template,
        |line| lines.is_none_or(|l| l.contains(&line)),
        true,
    );
    if rewritten.found.is_empty() {
        return Ok(None);
    }
    let after = apply(source.as_bytes(), &rewritten.splices);
    let mut match_lines: Vec<u64> = rewritten.found.iter().map(|f| f.line).collect();
    match_lines.dedup();
    let real = std::fs::canonicalize(&shown)?;
    Ok(Some(FileChange {
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
    }))
}
