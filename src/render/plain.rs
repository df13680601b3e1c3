//! rg's own lines, printed as `rg -n` would print them, for an answer
//! smaller than a page (invariant I2).

use std::io::Write;

use anyhow::Result;

use crate::search::fold::PlainLine;

/// Writes rg's plain lines: `path:line:text` (or `line:text` when rg would
/// not name the file).
pub fn write_lines(out: &mut dyn Write, lines: &[PlainLine], with_filename: bool) -> Result<()> {
    let mut buf = Vec::new();
    for PlainLine { path, number, text } in lines {
        if with_filename {
            buf.extend_from_slice(path);
            buf.push(b':');
        }
        write!(buf, "{number}:")?;
        buf.extend_from_slice(text);
    }
    out.write_all(&buf)?;
    Ok(())
}
