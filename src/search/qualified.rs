//! The definition a qualified name names. `Command.Traverse`,
//! `Shebang::new` or `QueryParser#normalize_params` is searched as
//! written, and code seldom spells its own definition that way (`func (c
//! *Command) Traverse(`): the matches are its uses, and its definition is
//! none of them. This stage finds that definition beside rg's pass, among
//! the files that spell both the name and its owner as words (or are
//! the owner: a Zig or Python file is its own namespace), by the
//! parser's qualified names ([`crate::defs::named`]). The page shows it
//! before the matches, apart from them: it is not one of rg's lines, so
//! it counts in no counter (I3) and is weighed apart, as attached code is
//! (I2).

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::defs::cache::DefsCache;
use crate::defs::{named, Def};
use crate::graph::files_spelling;
use crate::graph::impact::is_test_code;
use crate::lang::Lang;
use crate::page::tally::Quote;
use crate::paths::path_of;
use crate::render::Code;
use crate::rg::{Rg, SearchFlags};
use crate::search::rank::lexical::contains_word;
use crate::search::settings::SearchSettings;

/// A qualified name as typed: its segments, the last the defined name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Qualified {
    /// The segments joined by dots (`Shebang::new` is `Shebang.new`).
    pub dotted: String,
    /// The segment before the name: what the defining file spells too.
    pub owner: String,
    /// The last segment.
    pub name: String,
}

/// Receivers, not types: no definition is qualified by them, so
/// `self.connect` or `this.render` looks for none.
const RECEIVERS: [&str; 6] = ["self", "this", "cls", "super", "base", "it"];

/// Definitions shown at most: an overloaded or re-declared name has
/// several, and the page is about its matches.
const MAX_SHOWN: usize = 3;

/// Files parsed at most, code before tests, the shallower first: enough for any
/// name its owner's files define, few enough for a cold search.
const MAX_PARSED: usize = 64;

impl Qualified {
    /// Reads `text` as a qualified name: identifiers joined by `.`, `::`
    /// or `#`, at least two, the first not a receiver (`self.x`).
    pub fn parse(text: &str) -> Option<Qualified> {
        let dotted = text.replace("::", ".").replace('#', ".");
        let segments: Vec<&str> = dotted.split('.').collect();
        let identifier = |s: &&str| {
            let mut chars = s.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        };
        if segments.len() < 2 || !segments.iter().all(identifier) {
            return None;
        }
        if RECEIVERS.contains(&segments[0]) {
            return None;
        }
        Some(Qualified {
            owner: segments[segments.len() - 2].to_string(),
            name: segments[segments.len() - 1].to_string(),
            dotted,
        })
    }
}

/// The qualified name a search asks for: its text, searched as written
/// (a regex's text is not the name it matches), on the first page and
/// not `-l` (which lists files with matches).
pub fn asked(settings: &SearchSettings) -> Option<Qualified> {
    let query = &settings.query;
    if settings.page > 1 || settings.files_only || !query.fixed_strings() {
        return None;
    }
    Qualified::parse(&query.text)
}

/// The definitions `qualified` names that no match of the search's text
/// holds, best first (code before tests, then the shallower path: a
/// vendored copy or a stub lies deeper than the code itself), each with
/// its name's line quoted.
pub fn definitions(settings: &SearchSettings, qualified: &Qualified) -> Result<Vec<Code>> {
    let query = &settings.query;
    let files = candidate_files(&settings.rg, &settings.flags, qualified)?;
    let (shown, langs): (Vec<&[u8]>, Vec<(PathBuf, Lang)>) = files
        .iter()
        .filter_map(|p| Some((&p[..], (path_of(p), Lang::from_path(p)?))))
        .unzip();
    let cache = DefsCache::new(settings.cache_dir.clone()).with_cwd(&settings.cwd);
    let mut found = Vec::new();
    for ((shown, (path, _)), defs) in shown.into_iter().zip(&langs).zip(cache.defs_many(&langs)) {
        let mut named: Vec<&Def> = named(&defs, &qualified.dotted);
        if named.is_empty() && is_owner_file(path, &qualified.owner) {
            // The file is the owner: its own top-level definitions.
            named = defs
                .iter()
                .filter(|d| d.short == qualified.name)
                .filter(|d| {
                    !defs
                        .iter()
                        .any(|o| o != *d && o.contains(d.start_line) && d.end_line <= o.end_line)
                })
                .collect();
        }
        if named.is_empty() {
            continue;
        }
        let Ok(source) = std::fs::read(path) else {
            continue;
        };
        let lines: Vec<&[u8]> = source.split(|&b| b == b'\n').collect();
        for def in named {
            let Some(line) = lines.get(def.name_line as usize - 1) else {
                continue;
            };
            // A line that spells the query is one of rg's: it ranks there.
            if memchr::memmem::find(line, query.text.as_bytes()).is_some() {
                continue;
            }
            found.push(Code {
                path: shown.to_vec(),
                def: def.clone(),
                lines: vec![Quote::around(u64::from(def.name_line), line, (0, 0))],
            });
        }
    }
    found.sort_by_cached_key(|c| {
        (
            is_test_code(&c.path),
            depth(&c.path),
            c.path.clone(),
            c.def.name_line,
        )
    });
    found.truncate(MAX_SHOWN);
    Ok(found)
}

/// Whether the file is the owner's namespace: named after it
/// (`DocumentStore.zig`, `posixpath.py`), or the index of a directory
/// named after it (`json/__init__.py`, `util/mod.rs`, `lib/index.js`).
fn is_owner_file(path: &Path, owner: &str) -> bool {
    let stem = path.file_stem().and_then(|s| s.to_str());
    let dir = || path.parent()?.file_name()?.to_str();
    stem == Some(owner)
        || matches!(stem, Some("__init__" | "mod" | "index")) && dir() == Some(owner)
}

/// The files that spell the name as a word and the owner as a word (or
/// are the owner's, [`is_owner_file`]): at most [`MAX_PARSED`], code
/// before tests and the shallower first. One rg pass lists the files
/// that spell the name; the owner is looked for in those files only, as
/// they are read (a second pass would read the whole tree again).
fn candidate_files(rg: &Rg, flags: &SearchFlags, qualified: &Qualified) -> Result<Vec<Vec<u8>>> {
    let mut listed = files_spelling(rg, flags, std::slice::from_ref(&qualified.name))?;
    listed.sort_by_cached_key(|p| (is_test_code(p), depth(p)));
    let owner = qualified.owner.as_bytes();
    let mut files = Vec::new();
    for path in listed {
        if files.len() == MAX_PARSED {
            break;
        }
        let local = path_of(&path);
        let spells_owner = || std::fs::read(&local).is_ok_and(|text| contains_word(&text, owner));
        if is_owner_file(&local, &qualified.owner) || spells_owner() {
            files.push(path);
        }
    }
    Ok(files)
}

/// How many directories deep a path as rg printed it lies.
fn depth(path: &[u8]) -> usize {
    path.iter().filter(|&&b| b == b'/').count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_its_owners_when_named_after_it_or_its_directorys_index() {
        for (path, owner) in [
            ("src/DocumentStore.zig", "DocumentStore"),
            ("json/__init__.py", "json"),
            ("a/util/mod.rs", "util"),
            ("lib/index.js", "lib"),
        ] {
            assert!(is_owner_file(Path::new(path), owner), "{path}");
        }
        for (path, owner) in [
            ("src/document_store.zig", "DocumentStore"),
            ("json/decoder.py", "json"),
            ("mod.rs", "util"),
        ] {
            assert!(!is_owner_file(Path::new(path), owner), "{path}");
        }
    }

    #[test]
    fn a_qualified_name_is_identifiers_joined_by_dots_colons_or_a_hash() {
        let q = Qualified::parse("Shebang::new").unwrap();
        assert_eq!(
            (q.dotted.as_str(), q.owner.as_str(), q.name.as_str()),
            ("Shebang.new", "Shebang", "new")
        );
        let q = Qualified::parse("Rack::Protection::AuthenticityToken").unwrap();
        assert_eq!(
            (q.owner.as_str(), q.name.as_str()),
            ("Protection", "AuthenticityToken")
        );
        assert_eq!(
            Qualified::parse("QueryParser#normalize_params")
                .unwrap()
                .dotted,
            "QueryParser.normalize_params"
        );
        for not in [
            "Traverse",
            "a.b()",
            "os.path.",
            ".x",
            "a b.c",
            "self.connect",
            "this.render",
            "1.5",
            "a->b",
            "x.*",
        ] {
            assert_eq!(Qualified::parse(not), None, "{not}");
        }
    }
}
