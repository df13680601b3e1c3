//! BERT's uncased WordPiece tokenizer, as the model's `tokenizer.json`
//! configures it: take the special tokens written in the text (`[MASK]`,
//! `[CLS]`, ...) as they are, before anything else; in the text between
//! them, clean (control characters dropped, whitespace made spaces), put
//! spaces around CJK ideographs, strip accents (NFD, nonspacing marks
//! dropped), lowercase; split on whitespace and around
//! each punctuation character; then each word into the longest pieces of
//! the vocabulary, first piece plain and the rest `##`-prefixed, a word
//! that cannot be split (or of more than 100 characters) being `[UNK]`.
//! `[CLS]` and `[SEP]` frame the ids, at most [`MAX_TOKENS`] in all.
//!
//! Code is ASCII nearly always, and ASCII takes a path of its own with no
//! Unicode tables; other text goes through `regex`'s Unicode classes.

use std::collections::HashMap;
use std::sync::OnceLock;

use anyhow::{bail, Context, Result};
use regex::Regex;
use unicode_normalization::UnicodeNormalization;

/// Tokens per text, `[CLS]` and `[SEP]` included: the model's
/// `max_seq_length` in `sentence_bert_config.json`.
pub const MAX_TOKENS: usize = 256;
/// Longer words are `[UNK]` whole, as BERT's tokenizer has it.
const MAX_WORD_CHARS: usize = 100;
/// The special tokens `tokenizer.json` lists as added tokens: written in
/// the text, each is its own id, matched as written (case and all)
/// before the text is normalised.
const SPECIAL: [&str; 5] = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];

/// The vocabulary and its special ids.
#[derive(Debug)]
pub struct WordPiece {
    vocab: HashMap<String, u32>,
    unk: u32,
    cls: u32,
    sep: u32,
    /// Of [`SPECIAL`], those in the vocabulary, with their ids.
    special: Vec<(&'static str, u32)>,
}

impl WordPiece {
    /// A tokenizer over `vocab.txt`'s text: one piece per line, its id the
    /// line's number from 0.
    pub fn from_vocab(text: &str) -> Result<WordPiece> {
        let vocab: HashMap<String, u32> = text
            .lines()
            .enumerate()
            .map(|(i, piece)| (piece.to_string(), i as u32))
            .collect();
        let id = |piece: &str| {
            vocab
                .get(piece)
                .copied()
                .with_context(|| format!("the vocabulary has no {piece}"))
        };
        let (unk, cls, sep) = (id("[UNK]")?, id("[CLS]")?, id("[SEP]")?);
        if vocab.len() < 1000 {
            bail!("the vocabulary has only {} pieces", vocab.len());
        }
        let special = SPECIAL
            .iter()
            .filter_map(|&token| Some((token, *vocab.get(token)?)))
            .collect();
        Ok(WordPiece {
            vocab,
            unk,
            cls,
            sep,
            special,
        })
    }

    /// The vocabulary's size: ids are below it.
    pub fn len(&self) -> usize {
        self.vocab.len()
    }

    /// Whether the vocabulary is empty (never, once loaded).
    pub fn is_empty(&self) -> bool {
        self.vocab.is_empty()
    }

    /// The ids of `text`: `[CLS]`, its pieces, `[SEP]`, at most
    /// [`MAX_TOKENS`].
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = vec![self.cls];
        let mut piece = String::new();
        let mut word_ids = Vec::new();
        let mut rest = text;
        while !rest.is_empty() && ids.len() < MAX_TOKENS - 1 {
            let (before, special, after) = self.next_special(rest);
            for_each_word(before, |word| {
                if ids.len() >= MAX_TOKENS - 1 {
                    return;
                }
                self.pieces(word, &mut piece, &mut word_ids);
                ids.extend_from_slice(&word_ids);
            });
            ids.extend(special);
            rest = after;
        }
        ids.truncate(MAX_TOKENS - 1);
        ids.push(self.sep);
        ids
    }

    /// `text` cut at its first special token: the text before, the
    /// token's id, the text after (all of `text`, none and "" when it has
    /// none).
    fn next_special<'t>(&self, text: &'t str) -> (&'t str, Option<u32>, &'t str) {
        for (at, _) in text.match_indices('[') {
            let from = &text[at..];
            if let Some(&(token, id)) = self.special.iter().find(|(t, _)| from.starts_with(t)) {
                return (&text[..at], Some(id), &from[token.len()..]);
            }
        }
        (text, None, "")
    }

    /// The pieces of one word into `out` (`piece` is scratch space).
    fn pieces(&self, word: &str, piece: &mut String, out: &mut Vec<u32>) {
        out.clear();
        let bounds: Vec<usize> = word
            .char_indices()
            .map(|(i, _)| i)
            .chain([word.len()])
            .collect();
        let chars = bounds.len() - 1;
        if chars > MAX_WORD_CHARS {
            out.push(self.unk);
            return;
        }
        let mut start = 0;
        while start < chars {
            let mut end = chars;
            let found = loop {
                if end == start {
                    break None;
                }
                piece.clear();
                if start > 0 {
                    piece.push_str("##");
                }
                piece.push_str(&word[bounds[start]..bounds[end]]);
                if let Some(&id) = self.vocab.get(piece.as_str()) {
                    break Some(id);
                }
                end -= 1;
            };
            match found {
                Some(id) => {
                    out.push(id);
                    start = end;
                }
                None => {
                    out.clear();
                    out.push(self.unk);
                    return;
                }
            }
        }
    }
}

/// Calls `emit` with each word and punctuation character of the
/// normalised `text` (which holds no special token), in order.
fn for_each_word(text: &str, mut emit: impl FnMut(&str)) {
    if text.is_ascii() {
        let mut lower = String::with_capacity(text.len());
        for b in text.bytes() {
            match b {
                b'\t' | b'\n' | b'\r' => lower.push(' '),
                0..=0x1f | 0x7f => {}
                _ => lower.push(b.to_ascii_lowercase() as char),
            }
        }
        for word in lower.split(' ') {
            let mut rest = word;
            while let Some(at) = rest.find(|c: char| c.is_ascii_punctuation()) {
                if at > 0 {
                    emit(&rest[..at]);
                }
                emit(&rest[at..at + 1]);
                rest = &rest[at + 1..];
            }
            if !rest.is_empty() {
                emit(rest);
            }
        }
        return;
    }
    let classes = unicode_classes();
    let clean = classes.control.replace_all(text, "");
    let stripped: String = clean.nfd().collect();
    let stripped = classes.mark.replace_all(&stripped, "");
    // Each character alone, as the reference does: a capital sigma is
    // `σ` at a word's end too, never the final `ς` that
    // `str::to_lowercase` gives there.
    let lower: String = stripped.chars().flat_map(char::to_lowercase).collect();
    for found in classes.token.find_iter(&lower) {
        emit(found.as_str());
    }
}

/// The Unicode classes of the non-ASCII path.
struct Classes {
    /// Dropped: NUL, U+FFFD, and every "other" character but tab and the
    /// line ends.
    control: Regex,
    /// Nonspacing marks, dropped after NFD (accents).
    mark: Regex,
    /// A token: one punctuation character, one CJK ideograph, or a run of
    /// anything else but whitespace.
    token: Regex,
}

fn unicode_classes() -> &'static Classes {
    static CLASSES: OnceLock<Classes> = OnceLock::new();
    CLASSES.get_or_init(|| {
        // BERT's punctuation: ASCII's, and Unicode's P categories.
        const PUNCT: &str = r"\p{P}!-/:-@\[-`{-~";
        // The ideographs the reference spaces out, as it spells them: its
        // Extension E starts at U+2B920, not at the block's U+2B820, so
        // the 256 ideographs between are letters of a word there (#37).
        const CJK: &str = r"\x{4E00}-\x{9FFF}\x{3400}-\x{4DBF}\x{20000}-\x{2A6DF}\x{2A700}-\x{2B73F}\x{2B740}-\x{2B81F}\x{2B920}-\x{2CEAF}\x{F900}-\x{FAFF}\x{2F800}-\x{2FA1F}";
        let regex = |pattern: &str| Regex::new(pattern).expect("a valid Unicode class");
        Classes {
            control: regex(r"[\x00\x{FFFD}]|[\p{C}&&[^\t\n\r]]"),
            mark: regex(r"\p{Mn}"),
            token: regex(&format!("[{PUNCT}]|[{CJK}]|[^\\s{PUNCT}{CJK}]+")),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokenizer() -> WordPiece {
        let mut vocab = vec!["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
        vocab.extend([
            "retry", "with", "back", "##off", "cafe", "naive", "hello", "(", ")", ",", "!", "x",
            "退", "避", "##s", "un", "##able",
        ]);
        // For the cases where scout parted from the reference (#37).
        vocab.extend([
            "[",
            "]",
            "mask",
            "a",
            "b",
            "οδοσ",
            "οδος",
            "\u{2B820}",
            "\u{2B920}",
        ]);
        let filler: Vec<String> = (0..1000).map(|i| format!("filler{i}")).collect();
        vocab.extend(filler.iter().map(String::as_str));
        WordPiece::from_vocab(&vocab.join("\n")).unwrap()
    }

    fn pieces(wp: &WordPiece, text: &str) -> Vec<String> {
        let names: HashMap<u32, &str> = wp.vocab.iter().map(|(k, &v)| (v, k.as_str())).collect();
        wp.encode(text)
            .iter()
            .map(|id| names[id].to_string())
            .collect()
    }

    #[test]
    fn splits_words_into_the_longest_pieces() {
        let wp = tokenizer();
        assert_eq!(
            pieces(&wp, "Retry with BACKOFF(x)"),
            ["[CLS]", "retry", "with", "back", "##off", "(", "x", ")", "[SEP]"]
        );
        // A word with no split is unknown whole, not in part.
        assert_eq!(pieces(&wp, "backq"), ["[CLS]", "[UNK]", "[SEP]"]);
    }

    #[test]
    fn strips_accents_drops_controls_and_isolates_ideographs() {
        let wp = tokenizer();
        assert_eq!(
            pieces(&wp, "Café,\u{200b} naïve!\t退避"),
            ["[CLS]", "cafe", ",", "naive", "!", "退", "避", "[SEP]"]
        );
    }

    #[test]
    fn the_ascii_path_agrees_with_the_unicode_one() {
        let wp = tokenizer();
        // The same text, once plain and once with a character the ASCII
        // path never sees (a zero-width space, dropped as a control).
        for text in ["unable, Retry(x)!", "hello\x07 with\tback"] {
            let marked = format!("{text}\u{200b}");
            assert_eq!(wp.encode(text), wp.encode(&marked), "{text:?}");
        }
    }

    // The expected pieces of the tests below are the reference's:
    // Hugging Face tokenizers 0.23.3 over this same vocabulary, with
    // tokenizer.json's BertNormalizer, BertPreTokenizer and added tokens
    // (#37).

    #[test]
    fn special_tokens_written_in_the_text_are_their_own_ids() {
        let wp = tokenizer();
        assert_eq!(
            pieces(&wp, "Retry[MASK]with [mask] [Mask]"),
            ["[CLS]", "retry", "[MASK]", "with", "[", "mask", "]", "[", "mask", "]", "[SEP]"]
        );
        assert_eq!(
            pieces(&wp, "a[UNK]b[SEP]"),
            ["[CLS]", "a", "[UNK]", "b", "[SEP]", "[SEP]"]
        );
    }

    #[test]
    fn each_character_lowercases_alone() {
        // Not `str::to_lowercase`, whose capital sigma ends a word as `ς`.
        let wp = tokenizer();
        assert_eq!(pieces(&wp, "ΟΔΟΣ ΟΔΟΣ"), ["[CLS]", "οδοσ", "οδοσ", "[SEP]"]);
    }

    #[test]
    fn cjk_ranges_are_the_references() {
        // The reference's Extension E starts at U+2B920: U+2B820 is a
        // letter of the word "x\u{2B820}", which has no pieces.
        let wp = tokenizer();
        assert_eq!(pieces(&wp, "x\u{2B820}"), ["[CLS]", "[UNK]", "[SEP]"]);
        assert_eq!(
            pieces(&wp, "x\u{2B920}"),
            ["[CLS]", "x", "\u{2B920}", "[SEP]"]
        );
    }

    #[test]
    fn stops_at_the_token_limit() {
        let wp = tokenizer();
        let ids = wp.encode(&"retry ".repeat(400));
        assert_eq!(ids.len(), MAX_TOKENS);
        assert_eq!((ids[0], ids[MAX_TOKENS - 1]), (wp.cls, wp.sep));
        assert_eq!(wp.encode(""), [wp.cls, wp.sep]);
    }

    #[test]
    fn a_vocabulary_without_its_special_pieces_is_refused() {
        let err = WordPiece::from_vocab("a\nb\n").unwrap_err();
        assert!(err.to_string().contains("[UNK]"), "{err}");
    }
}
