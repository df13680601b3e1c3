//! Quoting words for the command lines scout prints (`repro:`, next page).

/// Quotes `word` for a POSIX shell: as is when it holds only characters no
/// shell treats specially, else in single quotes. Bytes that are not UTF-8
/// are replaced (the printed command is for reading; scout runs rg with the
/// real bytes).
pub fn quote(word: &[u8]) -> String {
    let safe = |b: &u8| b.is_ascii_alphanumeric() || b"_@%+=:,./-".contains(b);
    let text = String::from_utf8_lossy(word);
    if !word.is_empty() && word.iter().all(safe) {
        return text.into_owned();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Joins words into one shell command line.
pub fn join<'a>(words: impl IntoIterator<Item = &'a [u8]>) -> String {
    words.into_iter().map(quote).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_leaves_plain_words_and_wraps_the_rest() {
        assert_eq!(quote(b"useState"), "useState");
        assert_eq!(quote(b"src/a-b.rs"), "src/a-b.rs");
        assert_eq!(quote(b"a b"), "'a b'");
        assert_eq!(quote(b"it's"), r"'it'\''s'");
        assert_eq!(quote(b""), "''");
        assert_eq!(quote(b"x$y"), "'x$y'");
    }
}
