//! Quoted lines grouped under their enclosing definitions.
//!
//! Pure: given a file's chosen quotes and its definitions (from `defs`),
//! says which definition heads which lines, and whether the code of the
//! definitions a page touches is small enough to attach. Reading files and
//! parsing them is the caller's business.

use crate::defs::{enclosing, Def};
use crate::page::tally::Quote;

/// Lines attached as code at most per definition.
pub const MAX_ATTACHED_LINES: u32 = 40;
/// Definitions whose code may be attached to one page.
pub const MAX_ATTACHED_DEFS: usize = 2;

/// Lines under one heading: an enclosing definition, or none (the file
/// level).
#[derive(Debug, PartialEq, Eq)]
pub struct Group<'a> {
    pub def: Option<&'a Def>,
    pub quotes: Vec<&'a Quote>,
}

/// Lines a new group has room for before it grows (a file's quotes on a
/// default page are at most 8).
const GROUP_ROOM: usize = 8;

/// Groups `quotes` (in display order) by their innermost enclosing
/// definition of more than one line: a one-line definition
/// (`pub type Word = u32;`) is its own quoted line, and a heading above it
/// would only repeat it, so it stands under the definition around it.
/// Groups come in the order their first line appears; lines keep their
/// order within a group.
pub fn group<'a>(quotes: &[&'a Quote], defs: &'a [Def]) -> Vec<Group<'a>> {
    let mut groups: Vec<Group<'a>> = Vec::new();
    for &quote in quotes {
        let def = u32::try_from(quote.line)
            .ok()
            .and_then(|l| enclosing_block(defs, l));
        match groups
            .iter_mut()
            .find(|g| g.def.map(|d| d as *const Def) == def.map(|d| d as *const Def))
        {
            Some(g) => g.quotes.push(quote),
            None => {
                // Room for a usual page's lines at once (a file keeps a
                // few), but never for all of them in every group: with
                // thousands of lines, one per definition, that would be
                // quadratic.
                let mut lines = Vec::with_capacity(quotes.len().min(GROUP_ROOM));
                lines.push(quote);
                groups.push(Group { def, quotes: lines });
            }
        }
    }
    groups
}

/// The innermost definition of more than one line holding `line`.
fn enclosing_block(defs: &[Def], line: u32) -> Option<&Def> {
    let def = enclosing(defs, line)?;
    if def.start_line < def.end_line {
        return Some(def);
    }
    // Ranges nest and `defs` is in start order, so the last multi-line one
    // holding the line is the innermost.
    defs.iter()
        .rev()
        .find(|d| d.start_line < d.end_line && d.contains(line))
}

/// The definitions whose code is worth attaching to a page: when every
/// quoted line falls in at most [`MAX_ATTACHED_DEFS`] definitions of at
/// most [`MAX_ATTACHED_LINES`] lines each. `None` when any line is outside
/// a definition or the definitions are too many or too long.
pub fn attachable<'a>(groups: &[(usize, Vec<Group<'a>>)]) -> Option<Vec<(usize, &'a Def)>> {
    let mut picked: Vec<(usize, &'a Def)> = Vec::new();
    for (file, file_groups) in groups {
        for group in file_groups {
            let def = group.def?;
            if def.end_line - def.start_line + 1 > MAX_ATTACHED_LINES {
                return None;
            }
            if !picked.iter().any(|(f, d)| f == file && *d == def) {
                picked.push((*file, def));
            }
        }
    }
    (!picked.is_empty() && picked.len() <= MAX_ATTACHED_DEFS).then_some(picked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defs::DefKind;

    fn def(name: &str, start: u32, end: u32) -> Def {
        Def {
            kind: DefKind::Function,
            name: name.into(),
            short: name.into(),
            start_line: start,
            end_line: end,
            name_line: start,
        }
    }

    fn quote(line: u64) -> Quote {
        Quote {
            line,
            ..Quote::default()
        }
    }

    #[test]
    fn a_line_in_each_of_many_definitions_reserves_room_for_a_few_only() {
        let defs: Vec<Def> = (0..2000).map(|i| def("f", 3 * i + 1, 3 * i + 3)).collect();
        let quotes: Vec<Quote> = (0..2000).map(|i| quote(3 * i + 2)).collect();
        let refs: Vec<&Quote> = quotes.iter().collect();
        let groups = group(&refs, &defs);
        assert_eq!(groups.len(), 2000);
        let reserved: usize = groups.iter().map(|g| g.quotes.capacity()).sum();
        assert!(reserved <= 2000 * GROUP_ROOM, "{reserved} lines reserved");
    }

    #[test]
    fn lines_group_under_the_innermost_definition_in_first_seen_order() {
        let defs = vec![
            def("outer", 1, 50),
            def("inner", 10, 20),
            def("other", 60, 70),
        ];
        let quotes = [quote(15), quote(3), quote(65), quote(12), quote(80)];
        let refs: Vec<&Quote> = quotes.iter().collect();
        let groups = group(&refs, &defs);
        let summary: Vec<(Option<&str>, Vec<u64>)> = groups
            .iter()
            .map(|g| {
                (
                    g.def.map(|d| d.name.as_str()),
                    g.quotes.iter().map(|q| q.line).collect(),
                )
            })
            .collect();
        assert_eq!(
            summary,
            vec![
                (Some("inner"), vec![15, 12]),
                (Some("outer"), vec![3]),
                (Some("other"), vec![65]),
                (None, vec![80]),
            ]
        );
    }

    #[test]
    fn a_one_line_definition_stands_under_the_definition_around_it() {
        let defs = vec![def("Word", 2, 2), def("Header", 5, 9), def("MAGIC", 6, 6)];
        let quotes = [quote(2), quote(6), quote(7)];
        let refs: Vec<&Quote> = quotes.iter().collect();
        let heads: Vec<(Option<&str>, usize)> = group(&refs, &defs)
            .iter()
            .map(|g| (g.def.map(|d| d.name.as_str()), g.quotes.len()))
            .collect();
        assert_eq!(heads, [(None, 1), (Some("Header"), 2)]);
    }

    #[test]
    fn code_is_attached_only_for_few_short_definitions_holding_every_line() {
        let defs = vec![
            def("a", 1, 10),
            def("b", 20, 30),
            def("c", 40, 45),
            def("long", 100, 200),
        ];
        let q = [quote(2), quote(25), quote(41), quote(150), quote(300)];
        let g = |lines: &[usize]| -> Vec<(usize, Vec<Group>)> {
            let refs: Vec<&Quote> = lines.iter().map(|&i| &q[i]).collect();
            vec![(0, group(&refs, &defs))]
        };
        assert_eq!(attachable(&g(&[0, 1])).map(|v| v.len()), Some(2));
        assert_eq!(attachable(&g(&[0, 1, 2])), None, "three definitions");
        assert_eq!(attachable(&g(&[3])), None, "a definition over 40 lines");
        assert_eq!(
            attachable(&g(&[0, 4])),
            None,
            "a line outside any definition"
        );
    }
}
