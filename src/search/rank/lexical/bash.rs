//! The lexical rules for Bash.

use super::tokens::Cursor;
use super::Site;

/// Bash (and POSIX sh):
/// - `function NAME` (with or without `()`), and `NAME()` or `NAME ()` at
///   the start of a line, whatever the indentation, followed by nothing,
///   `{`, `(` or a comment;
/// - `NAME=value` at column 0 (a global);
/// - `alias NAME=` and `readonly NAME=` anywhere; `export`, `declare` and
///   `typeset NAME=` at column 0, or anywhere with `-g` (inside a
///   function a plain `declare` makes a local), flags allowed
///   (`declare -A NAME=(...)`).
///
/// The assignment forms need the `=` right after the name. Not:
/// `local NAME=`, indented `NAME=value` (a local or a reassignment inside
/// a function or block), `NAME+=`, `export NAME` without a value,
/// `$NAME` and `${NAME}`, calls (`NAME arg`), `echo NAME`. Names with `-`,
/// `:` or `.`, valid for Bash functions, are not identifiers and never
/// asked about.
pub(super) fn bash(site: &Site) -> bool {
    let before = site.before();
    let after = site.after();
    if before.is_empty() {
        let mut a = Cursor::new(after);
        if a.eat(b"(") && a.eat(b")") {
            return a.at_end() || matches!(a.peek(), Some(b'{' | b'(' | b'#'));
        }
        return site.at_column_zero() && after.first() == Some(&b'=');
    }
    let mut c = Cursor::new(before);
    match c.word() {
        Some(b"function") => {
            c.at_end() && matches!(after.first(), None | Some(b'(' | b'{' | b' ' | b'\t'))
        }
        Some(word @ (b"alias" | b"readonly" | b"export" | b"declare" | b"typeset")) => {
            let mut global = matches!(word, b"alias" | b"readonly") || site.at_column_zero();
            while c.eat(b"-") {
                let Some(flags) = c.word_touching() else {
                    return false;
                };
                global |= word != b"export" && flags.contains(&b'g');
            }
            global && c.at_end() && after.first() == Some(&b'=')
        }
        _ => false,
    }
}
