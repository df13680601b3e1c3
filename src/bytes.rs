//! Searches in byte strings too short to be worth building a searcher
//! for: a source line, a name. Shared by rg's matcher (match spans in
//! short lines) and the lexical definition rules.

/// The first occurrence of the non-empty `needle` in `haystack`, found
/// from each occurrence of its first byte: on a short haystack (a line,
/// a name) quicker than building a searcher.
pub fn find_short(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, _) = needle.split_first()?;
    let last_start = haystack.len().checked_sub(needle.len())?;
    let mut at = 0;
    while at <= last_start {
        at += memchr::memchr(first, &haystack[at..=last_start])?;
        if haystack[at..].starts_with(needle) {
            return Some(at);
        }
        at += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_occurrence_as_memmem_finds_it() {
        for (haystack, needle) in [
            (&b"abababa"[..], &b"aba"[..]),
            (b"needle", b"needle"),
            (b"ne", b"needle"),
            (b"", b"x"),
            (b"xxxy", b"xy"),
            (b"caf\xc3\xa9 \xc3\xa9", "é".as_bytes()),
        ] {
            assert_eq!(
                find_short(haystack, needle),
                memchr::memmem::find(haystack, needle),
                "{needle:?} in {haystack:?}"
            );
        }
        assert_eq!(
            find_short(b"abc", b""),
            None,
            "an empty needle is never asked"
        );
    }
}
