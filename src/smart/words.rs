//! Words for `scout smart`: identifiers split into lower-case words,
//! English stemming, and the words a question is made of that say nothing
//! about the code (stop words and question words).

use std::borrow::Cow;
use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};

static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// The English (Porter 2) stem of a lower-case word: `evicting` and
/// `evictions` are both `evict`.
pub fn stem(word: &str) -> Cow<'_, str> {
    STEMMER.stem(word)
}

/// Splits an identifier or a run of text into lower-case words at
/// non-alphanumeric characters, `camelCase` humps (`HTTPServer` is
/// `http`, `server`), `snake_case` and `kebab-case` separators, and the
/// edges between letters and digits (`utf8` is `utf`, `8`). Calls `emit`
/// with each word, in order.
pub fn split_words(text: &str, mut emit: impl FnMut(&str)) {
    let mut word = String::new();
    let mut prev: Option<char> = None;
    let chars: Vec<char> = if text.is_ascii() {
        Vec::new()
    } else {
        text.chars().collect()
    };
    let bytes = text.as_bytes();
    let at = |i: usize| -> Option<char> {
        if chars.is_empty() {
            bytes.get(i).map(|&b| b as char)
        } else {
            chars.get(i).copied()
        }
    };
    let mut i = 0;
    while let Some(c) = at(i) {
        i += 1;
        if !c.is_alphanumeric() {
            flush(&mut word, &mut emit);
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            let boundary = (p.is_lowercase() && c.is_uppercase())
                || (p.is_alphabetic() && c.is_numeric())
                || (p.is_numeric() && c.is_alphabetic())
                || (p.is_uppercase()
                    && c.is_uppercase()
                    // `HTTPServer`, but not the plural of `URLs`.
                    && at(i).is_some_and(|n| n.is_lowercase())
                    && at(i + 1).is_some_and(|n| n.is_lowercase()));
            if boundary {
                flush(&mut word, &mut emit);
            }
        }
        if c.is_ascii() {
            word.push(c.to_ascii_lowercase());
        } else {
            word.extend(c.to_lowercase());
        }
        prev = Some(c);
    }
    flush(&mut word, &mut emit);
}

fn flush(word: &mut String, emit: &mut impl FnMut(&str)) {
    if !word.is_empty() {
        emit(word);
        word.clear();
    }
}

/// [`split_words`], collected.
#[cfg(test)]
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    split_words(text, |w| out.push(w.to_string()));
    out
}

/// Words that carry no meaning in a question about code: English function
/// words, question words, the words people use to ask for code at all
/// ("where is the function that ..."), and the quantifiers and fillers of
/// a paraphrase ("several", "like", "everything inside it").
pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// Sorted, for [`is_stop_word`]'s binary search (a test checks the order).
const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "all",
    "already",
    "also",
    "am",
    "an",
    "and",
    "another",
    "any",
    "anything",
    "are",
    "as",
    "at",
    "be",
    "because",
    "become",
    "becomes",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "certain",
    "code",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "done",
    "down",
    "during",
    "each",
    "either",
    "else",
    "every",
    "everything",
    "exactly",
    "few",
    "for",
    "from",
    "function",
    "functions",
    "further",
    "get",
    "gets",
    "given",
    "goes",
    "had",
    "happen",
    "happens",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "him",
    "his",
    "how",
    "i",
    "if",
    "implement",
    "implementation",
    "implemented",
    "implements",
    "in",
    "including",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "like",
    "logic",
    "make",
    "makes",
    "many",
    "me",
    "method",
    "methods",
    "might",
    "more",
    "most",
    "much",
    "must",
    "my",
    "need",
    "needs",
    "no",
    "nor",
    "not",
    "nothing",
    "now",
    "of",
    "off",
    "often",
    "on",
    "once",
    "one",
    "ones",
    "only",
    "or",
    "other",
    "otherwise",
    "our",
    "out",
    "over",
    "own",
    "part",
    "place",
    "please",
    "rather",
    "same",
    "several",
    "she",
    "should",
    "so",
    "some",
    "something",
    "somewhere",
    "such",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "thing",
    "things",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "us",
    "use",
    "used",
    "uses",
    "using",
    "various",
    "very",
    "via",
    "want",
    "was",
    "way",
    "we",
    "were",
    "what",
    "whatever",
    "when",
    "whenever",
    "where",
    "wherever",
    "whether",
    "which",
    "while",
    "who",
    "whom",
    "whose",
    "why",
    "will",
    "with",
    "within",
    "without",
    "would",
    "you",
    "your",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_camel_snake_kebab_and_digits() {
        assert_eq!(words("parseConfigFile"), ["parse", "config", "file"]);
        assert_eq!(words("parse_config_file"), ["parse", "config", "file"]);
        assert_eq!(words("parse-config-file"), ["parse", "config", "file"]);
        assert_eq!(words("HTTPServer"), ["http", "server"]);
        assert_eq!(words("utf8Decode"), ["utf", "8", "decode"]);
        assert_eq!(words("Server.handle"), ["server", "handle"]);
        assert_eq!(words("ll2string"), ["ll", "2", "string"]);
        assert_eq!(words("URLs"), ["urls"]);
        assert_eq!(words("parseURLs now"), ["parse", "urls", "now"]);
        assert_eq!(words("größeWert"), ["größe", "wert"]);
        assert_eq!(words("  "), Vec::<String>::new());
    }

    #[test]
    fn stems_english_words() {
        assert_eq!(stem("evicting"), "evict");
        assert_eq!(stem("evictions"), "evict");
        assert_eq!(stem("directories"), "directori");
        assert_eq!(stem("directory"), "directori");
        assert_eq!(stem("config"), "config");
    }

    #[test]
    fn stop_words_are_sorted_and_found() {
        assert!(
            STOP_WORDS.windows(2).all(|w| w[0] < w[1]),
            "STOP_WORDS must be sorted"
        );
        assert!(is_stop_word("where"));
        assert!(is_stop_word("the"));
        assert!(!is_stop_word("evict"));
        assert!(!is_stop_word("find"));
        // Quantifiers and fillers of a paraphrase name nothing in code.
        for filler in ["several", "like", "everything", "another", "exactly"] {
            assert!(is_stop_word(filler), "{filler}");
        }
    }
}
