//! A definition as every JSON page names it: kind, name and lines.

use serde::Serialize;

use crate::defs::Def;

/// A definition in a JSON page.
#[derive(Debug, Serialize)]
pub struct Symbol {
    pub kind: &'static str,
    pub name: String,
    /// 1-based, inclusive.
    pub start: u32,
    pub end: u32,
}

impl Symbol {
    pub fn of(def: &Def) -> Symbol {
        Symbol {
            kind: def.kind.label(),
            name: def.name.clone(),
            start: def.start_line,
            end: def.end_line,
        }
    }
}
