//! A section about scout in `AGENTS.md` or `CLAUDE.md`, for harnesses
//! without hooks: the README's "which tool for which question" table
//! (taken from the README at build time, so the two never drift), between
//! markers. Writing it again replaces what is between the markers and
//! nothing else; an unchanged section changes nothing.

use anyhow::{bail, Result};

/// The line opening scout's section.
pub const BEGIN: &str = "<!-- scout:begin (written by `scout setup agents-md`; edits between these markers are replaced) -->";
/// The line closing it.
pub const END: &str = "<!-- scout:end -->";

const README: &str = include_str!("../../README.md");

/// The README's table of which tool answers which question.
pub fn tool_table() -> &'static str {
    let start = README
        .find("## Which tool for which question")
        .and_then(|at| README[at..].find("\n|").map(|t| at + t + 1))
        .unwrap_or(0);
    let rest = &README[start..];
    let end = rest.find("\n\n").unwrap_or(rest.len());
    &rest[..end]
}

/// The section, markers included, ending with a newline.
pub fn section() -> String {
    format!(
        "{BEGIN}\n## Searching and reading code: scout\n\n\
         `scout` answers code lookups in one call, within a token budget, and says what it\n\
         left out and how to see it. Prefer it to a bare `rg` or `grep -r` over the\n\
         whole tree.\n\n{}\n\n\
         In an agent session (`CLAUDE_CODE_SESSION_ID`, `CODEX_THREAD_ID` or\n\
         `SCOUT_SESSION_ID`), `scout search` and `scout read` remember what they showed\n\
         and collapse it when it comes up again, unchanged; `--again` shows it anyway.\n\
         `scout <command> --help` has examples.\n{END}\n",
        tool_table()
    )
}

/// `doc` with scout's section written: replaced between the markers, or
/// appended (after a blank line) when there are none; `None` when it is
/// already there as it should be.
pub fn write(doc: &str) -> Result<Option<String>> {
    let new = match markers(doc)? {
        Some((start, end)) => format!("{}{}{}", &doc[..start], section(), &doc[end..]),
        None if doc.is_empty() => section(),
        None => {
            let sep = if doc.ends_with("\n\n") {
                ""
            } else if doc.ends_with('\n') {
                "\n"
            } else {
                "\n\n"
            };
            format!("{doc}{sep}{}", section())
        }
    };
    Ok((new != doc).then_some(new))
}

/// `doc` without scout's section (and the blank line before it), or
/// `None` when it has none.
pub fn remove(doc: &str) -> Result<Option<String>> {
    let Some((start, end)) = markers(doc)? else {
        return Ok(None);
    };
    let before = doc[..start]
        .strip_suffix('\n')
        .filter(|b| b.ends_with('\n'))
        .unwrap_or(&doc[..start]);
    Ok(Some(format!("{before}{}", &doc[end..])))
}

/// The byte range of the section: from the start of the begin marker's
/// line to past the end marker's line.
fn markers(doc: &str) -> Result<Option<(usize, usize)>> {
    let begin = doc.find("<!-- scout:begin");
    let end = doc.find(END);
    match (begin, end) {
        (None, None) => Ok(None),
        (Some(b), Some(e)) if b < e => {
            let mut stop = e + END.len();
            if doc[stop..].starts_with('\n') {
                stop += 1;
            }
            Ok(Some((b, stop)))
        }
        _ => bail!("scout's section markers are unbalanced ({BEGIN} ... {END}); fix them by hand"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_the_readmes() {
        let table = tool_table();
        assert!(
            table.starts_with("| question | tool |\n|---|---|\n"),
            "{table}"
        );
        assert!(table.contains("`scout search X`"), "{table}");
        assert!(!table.contains("\n\n"));
    }

    #[test]
    fn writing_is_idempotent_and_keeps_the_rest() {
        let doc = "# Project\n\nBuild with make.\n";
        let once = write(doc).unwrap().unwrap();
        assert!(
            once.starts_with("# Project\n\nBuild with make.\n\n<!-- scout:begin"),
            "{once}"
        );
        assert_eq!(write(&once).unwrap(), None);
        let edited = once.replace("Prefer it to", "PREFER it to") + "\n## Later\n";
        let fixed = write(&edited).unwrap().unwrap();
        assert_eq!(fixed, once.clone() + "\n## Later\n");
        assert_eq!(remove(&once).unwrap().unwrap(), doc);
        assert_eq!(write("").unwrap().unwrap(), section());
    }

    #[test]
    fn unbalanced_markers_are_refused() {
        assert!(write(&format!("x\n{END}\n")).is_err());
        assert!(write(&format!("{BEGIN}\nx\n")).is_err());
    }
}
