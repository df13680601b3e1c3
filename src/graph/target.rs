//! The definition a `--callers-of` or `--impact` names: `PATH#SYMBOL`
//! (a name, `Type.method`, `Type::method`) or `PATH:LINE`, found among the
//! file's definitions; a name the file does not define, or defines more
//! than once (overload declarations aside), is an error that lists the
//! candidates with their lines.

use std::ffi::OsString;
use std::path::Path;

use anyhow::{bail, Result};

use super::{cache, facts, resolve, Target};
use crate::defs::{Def, DefKind};
use crate::lang::Lang;

/// A `--callers-of` or `--impact` argument as typed: `PATH#SYMBOL`
/// (`SYMBOL` a name, `Type.method` or `Type::method`) or `PATH:LINE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolSpec {
    pub text: String,
    pub path: OsString,
    pub symbol: SymbolRef,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SymbolRef {
    Name(String),
    /// 1-based line of the definition's name (or any line of its
    /// signature before the body).
    Line(u32),
}

impl SymbolSpec {
    /// Reads `PATH#SYMBOL` or `PATH:LINE`.
    pub fn parse(text: &str) -> Result<SymbolSpec> {
        // `PATH:LINE` first: a symbol never ends in `:` and digits, while
        // a path may hold a `#` (`d#x/app.py:1`).
        if let Some((path, line)) = text.rsplit_once(':') {
            if let Ok(line) = line.parse::<u32>() {
                if !path.is_empty() && line > 0 {
                    return Ok(SymbolSpec {
                        text: text.to_string(),
                        path: path.into(),
                        symbol: SymbolRef::Line(line),
                    });
                }
            }
        }
        if let Some((path, symbol)) = text.rsplit_once('#') {
            if path.is_empty() || symbol.is_empty() {
                bail!("{text:?}: expected PATH#SYMBOL (e.g. src/config.py#load, src/app.ts#App.render) or PATH:LINE");
            }
            return Ok(SymbolSpec {
                text: text.to_string(),
                path: path.into(),
                symbol: SymbolRef::Name(symbol.replace("::", ".")),
            });
        }
        bail!("{text:?}: expected PATH#SYMBOL (e.g. src/config.py#load, src/app.ts#App.render) or PATH:LINE")
    }
}

impl Target {
    /// `function load (src/config.py:12)`.
    pub fn title(&self) -> String {
        format!(
            "{} ({}:{})",
            self.def.title(),
            String::from_utf8_lossy(&self.path),
            self.def.name_line
        )
    }
}

/// Finds the definition `spec` names; an error lists the file's
/// candidates, with their lines.
///
/// The file's facts come through `cache` (and stay there for the
/// attribution that follows).
pub fn resolve_target(spec: &SymbolSpec, cache: &cache::FactsCache) -> Result<Target> {
    let path = Path::new(&spec.path);
    let shown = spec.path.to_string_lossy();
    let meta =
        std::fs::metadata(path).map_err(|e| anyhow::anyhow!("{}: {shown}: {e}", spec.text))?;
    if !meta.is_file() {
        bail!(
            "{}: {shown} is not a file; name the file that defines the symbol",
            spec.text
        );
    }
    let bytes = spec.path.as_encoded_bytes();
    let Some(lang) = Lang::from_path(bytes) else {
        bail!("{}: scout does not know the language of {shown}", spec.text);
    };
    let lang = if lang == Lang::Cpp && bytes.ends_with(b".h") {
        Lang::C
    } else {
        lang
    };
    let source = std::fs::read(path)?;
    let canon = std::fs::canonicalize(path)?;
    let facts = cache
        .facts(&canon, lang)
        .unwrap_or_else(|| facts::extract(lang, &source));
    let defs: Vec<Def> = facts
        .defs
        .iter()
        .filter(|d| d.kind != DefKind::Impl)
        .cloned()
        .collect();
    let listing = |defs: &[&Def]| {
        let items: Vec<String> = defs
            .iter()
            .take(30)
            .map(|d| format!("{} ({})", d.title(), d.name_line))
            .collect();
        let more = defs.len().saturating_sub(30);
        if more > 0 {
            format!("{} (+{more} more)", items.join(", "))
        } else {
            items.join(", ")
        }
    };
    let all: Vec<&Def> = defs.iter().collect();
    let matches: Vec<&Def> = match &spec.symbol {
        SymbolRef::Name(name) => crate::defs::named(&defs, name),
        SymbolRef::Line(line) => {
            let on: Vec<&Def> = defs.iter().filter(|d| d.name_line == *line).collect();
            if on.is_empty() {
                defs.iter()
                    .filter(|d| d.start_line <= *line && *line <= d.name_line)
                    .collect()
            } else {
                on
            }
        }
    };
    // Among same-named definitions, the file's own (top-level) one is
    // the name's: a nested helper of that name is picked by its line.
    let top: Vec<&Def> = matches
        .iter()
        .copied()
        .filter(|d| {
            !all.iter().any(|p| {
                p.start_line <= d.start_line
                    && d.end_line <= p.end_line
                    && p.name_line != d.name_line
            })
        })
        .collect();
    let matches = if matches.len() > 1 && top.len() == 1 && !overloads(&matches, &defs, &source) {
        top
    } else {
        matches
    };
    let chosen: Vec<&Def> = match matches.len() {
        0 if all.is_empty() => bail!(
            "{}: {shown} has no definitions scout can parse (a prototype or a declaration is not one: name the file that defines it)",
            spec.text
        ),
        0 => bail!(
            "{}: {shown} does not define it; its definitions: {}",
            spec.text,
            listing(&all)
        ),
        1 => matches,
        _ if overloads(&matches, &defs, &source) => matches,
        _ => bail!(
            "{}: {shown} defines it {} times: {}; name one by its line, as {shown}:LINE{}",
            spec.text,
            matches.len(),
            listing(&matches),
            if matches.iter().any(|d| d.kind == DefKind::Method) {
                format!(", or a method as {shown}#Type.name")
            } else if matches.iter().any(|d| {
                all.iter().any(|o| {
                    o.name_line != d.name_line && o.start_line <= d.start_line && d.end_line <= o.end_line
                })
            }) {
                format!(", or one inside another by their names, as {shown}#outer.name")
            } else {
                String::new()
            }
        ),
    };
    let def = (*chosen.last().expect("one at least")).clone();
    let owner = resolve::owner_of(&def).map(str::to_string);
    let is_static = lang == Lang::C && facts.statics.contains(&def.short);
    Ok(Target {
        spec: spec.text.clone(),
        path: bytes.to_vec(),
        canon,
        lang,
        lines: chosen.iter().map(|d| d.name_line).collect(),
        def,
        owner,
        is_static,
        c_definers: Vec::new(),
        c_renames: Vec::new(),
    })
}

/// Whether same-named definitions are one function's overload
/// declarations: Python `@overload` stubs before the implementation,
/// TypeScript signatures (one line, ending in `;`) before it. Overloads
/// are siblings: a function held in a one-line `const` at the top and a
/// local of that name in a function are two definitions.
fn overloads(defs: &[&Def], all: &[Def], source: &[u8]) -> bool {
    let lines: Vec<&[u8]> = source.split(|&b| b == b'\n').collect();
    let text = |from: u32, to: u32| -> Vec<u8> {
        lines
            .get(from as usize - 1..(to as usize).min(lines.len()))
            .map(|l| l.join(&b'\n'))
            .unwrap_or_default()
    };
    let parent = |d: &Def| resolve::parent_of(all, d).map(|p| p.name_line);
    let same = defs
        .windows(2)
        .all(|w| w[0].name == w[1].name && w[0].kind == w[1].kind && parent(w[0]) == parent(w[1]));
    same && defs[..defs.len() - 1].iter().all(|d| {
        let head = text(d.start_line, d.name_line);
        let whole = text(d.start_line, d.end_line);
        let trimmed = whole.trim_ascii_end();
        memchr::memmem::find(&head, b"overload").is_some()
            || (trimmed.ends_with(b";") && !whole.contains(&b'{'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_name_a_symbol_or_a_line() {
        let spec = SymbolSpec::parse("src/a.rs#Foo::bar").unwrap();
        assert_eq!(spec.path, OsString::from("src/a.rs"));
        assert_eq!(spec.symbol, SymbolRef::Name("Foo.bar".into()));
        let spec = SymbolSpec::parse("src/a.py:12").unwrap();
        assert_eq!(spec.symbol, SymbolRef::Line(12));
        // A `#` in a directory's name, before `:LINE` or `#SYMBOL`.
        let spec = SymbolSpec::parse("d#x/app.py:1").unwrap();
        assert_eq!(spec.path, OsString::from("d#x/app.py"));
        assert_eq!(spec.symbol, SymbolRef::Line(1));
        let spec = SymbolSpec::parse("d#x/app.py#load").unwrap();
        assert_eq!(spec.path, OsString::from("d#x/app.py"));
        assert_eq!(spec.symbol, SymbolRef::Name("load".into()));
        for bad in ["src/a.py", "#x", "a.py#", "a.py:0", "a.py:x"] {
            assert!(SymbolSpec::parse(bad).is_err(), "{bad}");
        }
    }
}
