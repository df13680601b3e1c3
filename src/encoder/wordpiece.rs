//! BERT's uncased WordPiece tokenizer, as the model's `tokenizer.json`
//! configures it in Hugging Face `tokenizers` (the reference: the model
//! was trained through it, so where a reading of BERT differs from it, it
//! wins). First the special tokens written in the text (`[MASK]`,
//! `[CLS]`, ...) are taken as they are, before anything else; the text
//! between them is cleaned (control characters dropped, whitespace made
//! spaces), spaces are put around CJK ideographs, accents stripped (NFD,
//! nonspacing marks dropped) and each character lowercased on its own;
//! then split on whitespace and around each punctuation character; then
//! each word into the longest pieces of the vocabulary, first piece plain
//! and the rest `##`-prefixed, a word that cannot be split (or of more
//! than 100 characters) being `[UNK]`. `[CLS]` and `[SEP]` frame the ids,
//! at most [`MAX_TOKENS`] in all.
//!
//! The Unicode classes are the reference's own: `unicode_categories`'
//! Unicode 9 tables, in which a character assigned since is no control,
//! mark or punctuation but part of a word (tests/it/tokenizer.rs checks scout
//! against the reference on real text). Code is ASCII nearly always,
//! and ASCII takes a path of its own with no tables.

use std::collections::HashMap;

use anyhow::{bail, Context, Result};
use unicode_categories::UnicodeCategories;
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
/// normalised `text` (which holds no special token), in order. ASCII
/// text is normalised here as [`normalise`] would, without its tables.
fn for_each_word(text: &str, emit: impl FnMut(&str)) {
    let normal = if text.is_ascii() {
        let mut lower = String::with_capacity(text.len());
        for b in text.bytes() {
            match b {
                b'\t' | b'\n' | b'\r' => lower.push(' '),
                0..=0x1f | 0x7f => {}
                _ => lower.push(b.to_ascii_lowercase() as char),
            }
        }
        lower
    } else {
        normalise(text)
    };
    split_words(&normal, emit);
}

/// The reference's BertNormalizer on non-ASCII text, step by step in its
/// order: clean, space out CJK ideographs, NFD, drop nonspacing marks,
/// lowercase.
fn normalise(text: &str) -> String {
    let mut clean = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c == '\0' || c == '\u{FFFD}' || is_control(c) {
            continue;
        }
        if is_whitespace(c) {
            clean.push(' ');
        } else if is_chinese(c) {
            clean.extend([' ', c, ' ']);
        } else {
            clean.push(c);
        }
    }
    let mut out = String::with_capacity(clean.len());
    for c in clean.nfd().filter(|c| !c.is_mark_nonspacing()) {
        // Each character alone, as the reference does: a capital sigma
        // is `σ` at a word's end too, never the final `ς` that
        // `str::to_lowercase` gives there.
        out.extend(c.to_lowercase());
    }
    out
}

/// Calls `emit` with each word of the normalised `text`: split on
/// whitespace, each punctuation character a word of its own.
fn split_words(text: &str, mut emit: impl FnMut(&str)) {
    for word in text.split(char::is_whitespace) {
        let mut rest = word;
        while let Some((at, c)) = rest.char_indices().find(|&(_, c)| is_punctuation(c)) {
            if at > 0 {
                emit(&rest[..at]);
            }
            let end = at + c.len_utf8();
            emit(&rest[at..end]);
            rest = &rest[end..];
        }
        if !rest.is_empty() {
            emit(rest);
        }
    }
}

/// Dropped by the cleaning: Unicode 9's "other" characters (Cc, Cf,
/// Co; not the unassigned Cn) but tab and the line ends.
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

/// Made a space by the cleaning.
fn is_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

/// ASCII's punctuation and Unicode 9's P categories.
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || (!c.is_ascii() && c.is_punctuation())
}

/// The reference's "Chinese characters": the CJK Unified Ideographs
/// blocks and their compatibility blocks, as it spells them: its
/// Extension E starts at U+2B920, not at the block's U+2B820, so the
/// 256 ideographs between are letters of a word there, and here.
fn is_chinese(c: char) -> bool {
    matches!(
        c as u32,
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
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
        // For the cases where scout parted from the reference.
        vocab.extend([
            "[",
            "]",
            "mask",
            "a",
            "b",
            "ab",
            "οδοσ",
            "οδος",
            "\u{2B820}",
            "\u{2B920}",
            "##\u{2E55}",
            "\u{166D}",
            "##\u{07FD}",
            "##\u{0890}",
            "\u{0890}",
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
        // Every ASCII character, inside a word.
        let text: String = (0u8..128).map(|b| format!("x{}Y ", b as char)).collect();
        let (mut fast, mut tables) = (Vec::new(), Vec::new());
        for_each_word(&text, |w| fast.push(w.to_string()));
        split_words(&normalise(&text), |w| tables.push(w.to_string()));
        assert_eq!(fast, tables);
    }

    // The expected pieces of the tests below are the reference's:
    // Hugging Face tokenizers 0.23.3 over this same vocabulary, with
    // tokenizer.json's BertNormalizer, BertPreTokenizer and added tokens.

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
    fn unicode_classes_are_the_references_unicode_9_ones() {
        let wp = tokenizer();
        for (text, want) in [
            // Unassigned: a letter of the word, not dropped.
            ("a\u{0378}b", vec!["[UNK]"]),
            // Private use and format characters are dropped.
            ("a\u{E000}b\u{00AD}", vec!["ab"]),
            // Punctuation since Unicode 14: a letter.
            ("a\u{2E55}", vec!["a", "##\u{2E55}"]),
            // Punctuation in Unicode 9, a symbol since.
            ("a\u{166D}b", vec!["a", "\u{166D}", "b"]),
            // A nonspacing mark since Unicode 11: kept.
            ("a\u{07FD}", vec!["a", "##\u{07FD}"]),
            // A format character since Unicode 14: kept.
            ("a\u{0890}", vec!["a", "##\u{0890}"]),
            // A nonspacing mark in Unicode 9, a spacing one since: dropped.
            ("a\u{1171E}b", vec!["ab"]),
        ] {
            let mut want: Vec<&str> = want;
            want.insert(0, "[CLS]");
            want.push("[SEP]");
            assert_eq!(pieces(&wp, text), want, "{text:?}");
        }
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
