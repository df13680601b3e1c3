//! PLACEHOLDER until the lexical rules land (being written in parallel).
use crate::lang::Lang;

pub fn is_identifier(s: &[u8]) -> bool {
    matches!(s.first(), Some(b) if b.is_ascii_alphabetic() || *b == b'_' || *b == b'$')
        && s.iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'$')
}

pub fn defines(_lang: Lang, line: &[u8], name: &[u8]) -> bool {
    let t = String::from_utf8_lossy(line);
    let n = String::from_utf8_lossy(name);
    ["fn ", "def ", "class ", "function ", "func ", "struct "]
        .iter()
        .any(|k| t.contains(&format!("{k}{n}")))
}
