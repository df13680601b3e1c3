//! The manual: man pages generated from the clap definitions in [`crate::cli`],
//! so they say what `--help` says.
//!
//! [`pages`] makes `scout.1` and one page per subcommand (`scout-search.1`,
//! `scout-memory-show.1`, ...), as `git` and `cargo` do. Each is what
//! `clap_mangen` renders from the command (name, synopsis, description,
//! options, subcommands), followed by scout's own sections: on `scout.1`
//! the README's "which tool for which question" table ([`which_tool`]) and
//! colour; on every page the examples of its `--help`, kept as written,
//! and the pages to see also. `scout man` prints `scout.1`; `scout man
//! --dir DIR` writes them all, which is how `./install.sh` installs them.

use std::io::Write;

use anyhow::Result;
use clap::CommandFactory;
use clap_mangen::roff::{bold, roman, Inline, Roff};
use clap_mangen::Man;

use crate::cli::Cli;

/// The README's "which tool for which question" table, row by row:
/// question, tool, in the README's Markdown. Read from the README at build
/// time ([`crate::setup::agents_md::tool_table`]), so the two never drift.
pub fn which_tool() -> Vec<(&'static str, &'static str)> {
    crate::setup::agents_md::tool_table()
        .lines()
        .skip_while(|l| !l.starts_with("|---"))
        .skip(1)
        .filter_map(|row| {
            let row = row.strip_prefix("| ")?.strip_suffix(" |")?;
            row.split_once(" | ")
        })
        .collect()
}

/// What `scout.1` says about colour.
const COLOUR: &str = "\
On a terminal, scout colours its output as rg does: paths magenta, line \
numbers green, matches bold red; definition headings cyan, and the header \
and footer lines (what a page holds, what it left out) dimmed. \
--color auto (the default) colours only when stdout is a terminal, NO_COLOR \
is unset or empty and TERM is not dumb; --color always and --color never \
decide alone. Colour never changes what is shown, counted or cut: a pipe, \
and with it every agent, gets the same bytes whatever --color says, and \
--json is never coloured.";

/// One man page: its file name (`scout-search.1`) and its roff source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub file_name: String,
    pub roff: Vec<u8>,
}

/// `scout.1`, then a page for every visible subcommand, depth first.
pub fn pages() -> Result<Vec<Page>> {
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    let mut pages = Vec::new();
    collect(&command, true, &mut pages)?;
    Ok(pages)
}

fn collect(command: &clap::Command, top: bool, pages: &mut Vec<Page>) -> Result<()> {
    pages.push(page(command, top)?);
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect(sub, false, pages)?;
    }
    Ok(())
}

/// The page of `command`; `top` for `scout.1`.
fn page(command: &clap::Command, top: bool) -> Result<Page> {
    let examples = command.get_after_help().map(|help| help.to_string());
    // The examples are laid out by hand; clap_mangen would fill them into
    // one paragraph, so they are rendered below instead.
    let man = Man::new(command.clone().after_help(None::<&str>))
        .title(
            command
                .get_display_name()
                .unwrap_or(command.get_name())
                .to_uppercase(),
        )
        .source(format!("scout {}", env!("CARGO_PKG_VERSION")))
        .manual("scout manual");
    let file_name = man.get_filename();
    let mut out = Vec::new();
    man.render(&mut out)?;
    let mut roff = Roff::new();
    if top {
        roff.control("SH", ["WHICH TOOL FOR WHICH QUESTION"]);
        for (question, tool) in which_tool() {
            roff.control("TP", []);
            roff.text(markdown(question));
            roff.text(markdown(tool));
        }
        roff.control("SH", ["COLOUR"]);
        roff.text([roman(COLOUR)]);
    }
    if let Some(examples) = examples {
        roff.control("SH", ["EXAMPLES"]);
        roff.control("nf", []);
        let examples = examples.strip_prefix("Examples:\n").unwrap_or(&examples);
        for line in examples.lines() {
            roff.text([roman(line)]);
        }
        roff.control("fi", []);
    }
    roff.control("SH", ["SEE ALSO"]);
    let mut see_also: Vec<String> = vec!["rg(1)".into()];
    if !top {
        see_also.push("scout(1)".into());
    }
    let name = command.get_display_name().unwrap_or(command.get_name());
    see_also.extend(
        command
            .get_subcommands()
            .filter(|s| !s.is_hide_set())
            .map(|s| format!("{name}-{}(1)", s.get_name())),
    );
    roff.text([roman(see_also.join(", "))]);
    roff.to_writer(&mut out)?;
    Ok(Page {
        file_name,
        roff: out,
    })
}

/// Inline Markdown as roff: `code` in bold, the rest roman.
fn markdown(text: &str) -> Vec<Inline> {
    text.split('`')
        .enumerate()
        .filter(|(_, part)| !part.is_empty())
        .map(|(i, part)| if i % 2 == 1 { bold(part) } else { roman(part) })
        .collect()
}

/// Writes every page into `dir` (created if need be); returns their paths.
pub fn write_all(dir: &std::path::Path) -> Result<Vec<std::path::PathBuf>> {
    use anyhow::Context;
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the man directory {}", dir.display()))?;
    let mut written = Vec::new();
    for page in pages()? {
        let path = dir.join(&page.file_name);
        let mut file = std::fs::File::create(&path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        file.write_all(&page.roff)
            .with_context(|| format!("cannot write {}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_the_readme_s() {
        let readme = include_str!("../README.md");
        let section = readme
            .split("## Which tool for which question\n")
            .nth(1)
            .expect("the README has the section");
        let rows: Vec<&str> = section
            .lines()
            .skip_while(|l| !l.starts_with("|---"))
            .skip(1)
            .take_while(|l| l.starts_with('|'))
            .collect();
        let expected: Vec<String> = which_tool()
            .iter()
            .map(|(question, tool)| format!("| {question} | {tool} |"))
            .collect();
        assert!(rows.len() >= 7, "{rows:?}");
        assert_eq!(rows, expected);
    }

    #[test]
    fn every_visible_command_has_a_page() {
        let names: Vec<String> = pages().unwrap().into_iter().map(|p| p.file_name).collect();
        for name in [
            "scout.1",
            "scout-search.1",
            "scout-grep.1",
            "scout-files.1",
            "scout-read.1",
            "scout-call.1",
            "scout-memory.1",
            "scout-memory-show.1",
            "scout-doctor.1",
        ] {
            assert!(names.iter().any(|n| n == name), "{name} not in {names:?}");
        }
        assert!(!names.iter().any(|n| n == "scout-man.1"), "{names:?}");
        assert!(!names.iter().any(|n| n == "scout-help.1"), "{names:?}");
    }

    #[test]
    fn markdown_code_is_bold() {
        let mut roff = Roff::new();
        roff.text(markdown("`scout read FILE` / `--range A:B`"));
        assert_eq!(
            roff.to_roff(),
            "\\fBscout read FILE\\fR / \\fB\\-\\-range A:B\\fR\n"
        );
    }
}
