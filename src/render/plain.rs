//! rg's own lines, printed as `rg -n` would print them, for an answer
//! smaller than a page (invariant I2); coloured as rg colours them when
//! colour is on.

use std::io::Write;

use anyhow::Result;

use super::style::{Painter, Role, Styled};
use crate::page::tally::{Plain, PlainLine};

/// Writes rg's plain lines: `path:line:text` (or `line:text` when rg would
/// not name the file).
pub fn write_lines(
    out: &mut dyn Write,
    plain: &Plain,
    with_filename: bool,
    painter: &Painter,
) -> Result<()> {
    let mut text = Styled::new();
    for line in &plain.lines {
        let PlainLine { path, number, .. } = line;
        let line = plain.text_of(line);
        if with_filename {
            text.push_styled(Role::Path, path);
            text.push(b":");
        }
        text.write_styled(Role::LineNumber, format_args!("{number}"));
        text.push(b":");
        text.push_styled(Role::Quote, line);
    }
    painter.write(out, &text)?;
    Ok(())
}
