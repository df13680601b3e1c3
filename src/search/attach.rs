//! Code attached to a page: when every match of the search sits in at
//! most two short definitions and nothing was left out, their code follows
//! the page, so the agent need not read them separately.

use crate::page::chosen_quotes;
use crate::page::group::{attachable, group, Group};
use crate::page::tally::Quote;
use crate::paths::path_of;
use crate::render::{self, Code, Report};

/// The code of the definitions holding every match on the page, when there
/// are few and short ones, nothing was left out, and it fits `room` bytes.
pub fn attach_code(report: &Report<'_>, room: Option<usize>) -> Vec<Code> {
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
                // Its `\r`, if any, is quoted too (I4).
                Quote::around(i as u64 + 1, line, (0, 0))
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
