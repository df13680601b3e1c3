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

/// The words of the command line typed (`argv`, program first, printed as
/// `scout`), without any of `flags` as `FLAG N` or `FLAG=N`: the base of a
/// command that sets them anew (the next page, a larger limit).
pub fn words_without_any<'a>(argv: &'a [std::ffi::OsString], flags: &[&str]) -> Vec<&'a [u8]> {
    let mut words: Vec<&[u8]> = vec![b"scout"];
    let mut skip_next = false;
    for arg in argv.iter().skip(1) {
        let bytes = arg.as_encoded_bytes();
        let with_equals = |flag: &&str| {
            bytes.len() > flag.len()
                && bytes.starts_with(flag.as_bytes())
                && bytes[flag.len()] == b'='
        };
        if skip_next {
            skip_next = false;
        } else if flags.iter().any(|f| bytes == f.as_bytes()) {
            skip_next = true;
        } else if !flags.iter().any(with_equals) {
            words.push(bytes);
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a POSIX shell makes of `line`, as the `shlex` crate splits it.
    fn split(line: &str) -> Vec<Vec<u8>> {
        shlex::bytes::split(line.as_bytes()).expect("a complete command line")
    }

    #[test]
    fn a_joined_line_splits_back_into_its_words() {
        let words: [&[u8]; 12] = [
            b"scout",
            b"search",
            b"it's",
            br"\bfn\s+main\(",
            br#"a "quoted" $HOME `x` \$y"#,
            b"^caret",
            b"!bang",
            b"*.{rs,go}",
            b"tab\tand\nnewline",
            b"",
            b"~/dir#x",
            b"caf\xc3\xa9",
        ];
        let line = join(words);
        assert_eq!(split(&line), words.map(<[u8]>::to_vec), "{line}");
    }

    proptest::proptest! {
        #![proptest_config(crate::testing::proptest_config(256))]
        #[test]
        fn any_words_split_back(words in proptest::collection::vec("[^\\x00]*", 0..6)) {
            let line = join(words.iter().map(String::as_bytes));
            let expected: Vec<Vec<u8>> = words.iter().map(|w| w.as_bytes().to_vec()).collect();
            proptest::prop_assert_eq!(split(&line), expected, "{}", line);
        }
    }

    #[test]
    fn quote_leaves_plain_words_and_wraps_the_rest() {
        assert_eq!(quote(b"useState"), "useState");
        assert_eq!(quote(b"src/a-b.rs"), "src/a-b.rs");
        assert_eq!(quote(b"a b"), "'a b'");
        assert_eq!(quote(b"it's"), r"'it'\''s'");
        assert_eq!(quote(b""), "''");
        assert_eq!(quote(b"x$y"), "'x$y'");
    }

    #[test]
    fn words_without_drops_the_flag_in_both_spellings() {
        let argv: Vec<std::ffi::OsString> = [
            "/usr/bin/scout",
            "search",
            "a b",
            "--page",
            "2",
            "src",
            "--page=3",
        ]
        .iter()
        .map(Into::into)
        .collect();
        assert_eq!(
            join(words_without_any(&argv, &["--page"])),
            "scout search 'a b' src"
        );
        let argv: Vec<std::ffi::OsString> = [
            "scout",
            "search",
            "x",
            "--color",
            "always",
            "--page",
            "2",
            "--color=never",
        ]
        .iter()
        .map(Into::into)
        .collect();
        assert_eq!(
            join(words_without_any(&argv, &["--page", "--color"])),
            "scout search x"
        );
    }
}
