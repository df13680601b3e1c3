//! The JSON events of `rg --json`, one per line of rg's stdout.
//!
//! The reference is the doc comment of ripgrep's JSON printer
//! (BurntSushi/ripgrep `crates/printer/src/json.rs`). Every event type is
//! modelled, including the `{"bytes": BASE64}` form that rg uses for paths
//! and lines that are not valid UTF-8: a parser that only reads `text`
//! silently drops such lines. Strings are borrowed from the input line when
//! they hold no escapes, so parsing a match allocates little.

use std::borrow::Cow;

use base64::Engine as _;
use serde::Deserialize;

/// One line of `rg --json` output, whole: the search reads only some of
/// it, but [`super::fast`]'s parser of match events is checked against
/// serde's reading of every field, so the unread ones stay.
#[derive(Debug)]
#[allow(dead_code)]
pub enum RgEvent<'a> {
    /// A file is about to be searched (sent only when it has a match or
    /// context line).
    Begin(Begin<'a>),
    /// A matching line (or lines, in multiline mode).
    Match(Match<'a>),
    /// A context line (`-A/-B/-C`).
    Context(Match<'a>),
    /// A file has been searched.
    End(End<'a>),
    /// The whole search is done; totals over every file.
    Summary(Summary),
}

/// rg's "arbitrary data": UTF-8 `text`, or base64 `bytes` otherwise.
#[derive(Debug, Default, Deserialize)]
pub struct Data<'a> {
    #[serde(borrow, default)]
    pub(super) text: Option<Text<'a>>,
    #[serde(borrow, default)]
    pub(super) bytes: Option<Text<'a>>,
}

/// A JSON string's bytes, borrowed from the input when it holds no
/// escapes. (serde borrows a bare `Cow<str>` field, but not one inside an
/// `Option`.)
#[derive(Debug)]
pub(super) struct Text<'a>(pub(super) Cow<'a, [u8]>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Visitor<'a> {
            type Value = Text<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Borrowed(v.as_bytes())))
            }
            fn visit_str<E>(self, v: &str) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Owned(v.as_bytes().to_vec())))
            }
            fn visit_string<E>(self, v: String) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Owned(v.into_bytes())))
            }
        }
        deserializer.deserialize_str(Visitor(std::marker::PhantomData))
    }
}

impl Data<'_> {
    /// The raw bytes, decoding base64 when rg sent the `bytes` form. A
    /// malformed base64 payload yields an empty slice rather than an error:
    /// rg never sends one, and a search must not fail on it.
    pub fn to_bytes(&self) -> Cow<'_, [u8]> {
        if let Some(Text(text)) = &self.text {
            return Cow::Borrowed(text);
        }
        match &self.bytes {
            Some(Text(b64)) => Cow::Owned(
                base64::engine::general_purpose::STANDARD
                    .decode(b64)
                    .unwrap_or_default(),
            ),
            None => Cow::Borrowed(&[]),
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct Begin<'a> {
    #[serde(borrow)]
    pub path: Data<'a>,
}

/// A `match` or `context` event.
#[derive(Debug, Deserialize)]
#[allow(dead_code)] // read whole: see RgEvent
pub struct Match<'a> {
    #[serde(borrow)]
    pub path: Data<'a>,
    /// The matching line, with its line terminator when it had one.
    #[serde(borrow)]
    pub lines: Data<'a>,
    /// 1-based; absent only when line numbers are off.
    pub line_number: Option<u64>,
    /// 0-based byte offset of the line in the file.
    pub absolute_offset: u64,
    #[serde(default)]
    pub submatches: Vec<Submatch<'a>>,
}

/// One match inside a line: byte offsets into `lines`, end exclusive.
#[derive(Debug, Deserialize)]
#[allow(dead_code)] // read whole: see RgEvent
pub struct Submatch<'a> {
    #[serde(rename = "match", borrow)]
    pub matched: Data<'a>,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)] // read whole: see RgEvent
pub struct End<'a> {
    #[serde(borrow)]
    pub path: Data<'a>,
    /// Set when rg found the file to be binary; the lines it sent for such
    /// a file may have had NUL bytes replaced, so they are not quotable.
    pub binary_offset: Option<u64>,
    pub stats: Stats,
}

#[derive(Debug, Deserialize)]
pub struct Summary {
    pub stats: Stats,
}

/// rg's counters, per file (`end`) or in total (`summary`).
#[derive(Debug, Default, Clone, Copy, Deserialize)]
pub struct Stats {
    pub matched_lines: u64,
    pub matches: u64,
}

/// The outer shape of every event. `data` is parsed once its type is
/// known, so its strings can borrow from the line (serde's tagged enums
/// buffer the content and would copy every string).
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    data: &'a serde_json::value::RawValue,
}

/// Parses one line of rg's JSON output.
pub fn parse_event(line: &[u8]) -> serde_json::Result<RgEvent<'_>> {
    // rg writes `{"type":"KIND","data":{...}}` for every event but the
    // summary; slicing that shape directly saves scanning `data` twice.
    if let Some((kind, data)) = split_envelope(line) {
        return parse_data(kind, data);
    }
    let envelope: Envelope<'_> = serde_json::from_slice(line)?;
    parse_data(envelope.kind.as_bytes(), envelope.data.get().as_bytes())
}

/// `(KIND, DATA)` of a line shaped `{"type":"KIND","data":DATA}`.
fn split_envelope(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let rest = line.strip_prefix(br#"{"type":""#)?;
    let quote = rest.iter().position(|&b| b == b'"')?;
    let (kind, rest) = rest.split_at(quote);
    let data = rest.strip_prefix(br#"","data":"#)?;
    let data = data.trim_ascii_end().strip_suffix(b"}")?;
    Some((kind, data))
}

fn parse_data<'a>(kind: &[u8], data: &'a [u8]) -> serde_json::Result<RgEvent<'a>> {
    Ok(match kind {
        b"begin" => RgEvent::Begin(serde_json::from_slice(data)?),
        b"match" => RgEvent::Match(match super::fast::parse_match(data) {
            Some(m) => m,
            None => serde_json::from_slice(data)?,
        }),
        b"context" => RgEvent::Context(serde_json::from_slice(data)?),
        b"end" => RgEvent::End(serde_json::from_slice(data)?),
        b"summary" => RgEvent::Summary(serde_json::from_slice(data)?),
        other => {
            return Err(serde::de::Error::unknown_variant(
                &String::from_utf8_lossy(other),
                &["begin", "match", "context", "end", "summary"],
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Captured from `rg --json -e useState .` (ripgrep 13) on a tree with a
    // non-UTF-8 file name and a Latin-1 line.
    const CAPTURED: &str = r#"{"type":"begin","data":{"path":{"bytes":"Li9u/20udHh0"}}}
{"type":"match","data":{"path":{"bytes":"Li9u/20udHh0"},"lines":{"text":"useState\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"useState"},"start":0,"end":8}]}}
{"type":"end","data":{"path":{"bytes":"Li9u/20udHh0"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":20673,"human":"0.000021s"},"searches":1,"searches_with_match":1,"bytes_searched":9,"bytes_printed":245,"matched_lines":1,"matches":1}}}
{"type":"begin","data":{"path":{"text":"./b.txt"}}}
{"type":"match","data":{"path":{"text":"./b.txt"},"lines":{"bytes":"Y2Fm6SB1c2VTdGF0ZQo="},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"useState"},"start":5,"end":13}]}}
{"type":"end","data":{"path":{"text":"./b.txt"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":30717,"human":"0.000031s"},"searches":1,"searches_with_match":1,"bytes_searched":14,"bytes_printed":245,"matched_lines":1,"matches":1}}}
{"data":{"elapsed_total":{"human":"0.002930s","nanos":2929529,"secs":0},"stats":{"bytes_printed":924,"bytes_searched":61,"elapsed":{"human":"0.000057s","nanos":57292,"secs":0},"matched_lines":4,"matches":4,"searches":3,"searches_with_match":3}},"type":"summary"}"#;

    #[test]
    fn every_captured_event_parses_including_base64_paths_and_lines() {
        let events: Vec<RgEvent> = CAPTURED
            .lines()
            .map(|l| parse_event(l.as_bytes()).unwrap())
            .collect();
        assert_eq!(events.len(), 7);
        match &events[0] {
            RgEvent::Begin(b) => assert_eq!(&*b.path.to_bytes(), b"./n\xffm.txt"),
            other => panic!("{other:?}"),
        }
        match &events[4] {
            RgEvent::Match(m) => {
                assert_eq!(&*m.lines.to_bytes(), b"caf\xe9 useState\n");
                assert_eq!(m.line_number, Some(1));
                assert_eq!((m.submatches[0].start, m.submatches[0].end), (5, 13));
            }
            other => panic!("{other:?}"),
        }
        match &events[6] {
            RgEvent::Summary(s) => {
                assert_eq!(s.stats.matched_lines, 4);
                assert_eq!(s.stats.matched_lines, 4);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn text_without_escapes_is_borrowed() {
        let line = br#"{"type":"begin","data":{"path":{"text":"src/a.rs"}}}"#;
        match parse_event(line).unwrap() {
            RgEvent::Begin(b) => assert!(matches!(b.path.text, Some(Text(Cow::Borrowed(_))))),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn binary_offset_is_read_from_end_events() {
        let line = br#"{"type":"end","data":{"path":{"text":"bin.dat"},"binary_offset":1,"stats":{"elapsed":{"secs":0,"nanos":1,"human":"0s"},"searches":1,"searches_with_match":1,"bytes_searched":11,"bytes_printed":233,"matched_lines":1,"matches":1}}}"#;
        match parse_event(line).unwrap() {
            RgEvent::End(e) => assert_eq!(e.binary_offset, Some(1)),
            other => panic!("{other:?}"),
        }
    }
}
