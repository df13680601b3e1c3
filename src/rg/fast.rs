//! A fast path for the one event that comes by the million: `match`.
//!
//! rg writes a match's data in one fixed shape:
//! `{"path":P,"lines":D,"line_number":N,"absolute_offset":N,"submatches":[{"match":D,"start":N,"end":N},...]}`
//! where P and D are `{"text":"..."}` or `{"bytes":"..."}`. Reading that
//! shape directly, with strings borrowed from the line unless they hold
//! escapes, costs a fraction of a generic deserializer. Anything else
//! (another field order, a future field, a malformed line) returns `None`
//! and the caller falls back to serde, so this path can only be faster,
//! never different: the tests compare both on the same lines.

use std::borrow::Cow;

use super::event::{Data, Match, Submatch, Text};

/// Parses the data object of a `match` event in rg's shape.
pub fn parse_match(data: &[u8]) -> Option<Match<'_>> {
    let mut r = Reader { s: data, i: 0 };
    r.lit(b"{\"path\":")?;
    let path = r.data()?;
    r.lit(b",\"lines\":")?;
    let lines = r.data()?;
    r.lit(b",\"line_number\":")?;
    let line_number = if r.try_lit(b"null") {
        None
    } else {
        Some(r.number()?)
    };
    r.lit(b",\"absolute_offset\":")?;
    let absolute_offset = r.number()?;
    r.lit(b",\"submatches\":[")?;
    let mut submatches = Vec::new();
    if !r.try_lit(b"]") {
        loop {
            r.lit(b"{\"match\":")?;
            let matched = r.data()?;
            r.lit(b",\"start\":")?;
            let start = r.number()? as usize;
            r.lit(b",\"end\":")?;
            let end = r.number()? as usize;
            r.lit(b"}")?;
            submatches.push(Submatch {
                matched,
                start,
                end,
            });
            if r.try_lit(b"]") {
                break;
            }
            r.lit(b",")?;
        }
    }
    r.lit(b"}")?;
    (r.i == data.len()).then_some(Match {
        path,
        lines,
        line_number,
        absolute_offset,
        submatches,
    })
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Reader<'a> {
    fn lit(&mut self, expected: &[u8]) -> Option<()> {
        self.try_lit(expected).then_some(())
    }

    fn try_lit(&mut self, expected: &[u8]) -> bool {
        let found = self.s[self.i..].starts_with(expected);
        if found {
            self.i += expected.len();
        }
        found
    }

    fn number(&mut self) -> Option<u64> {
        let start = self.i;
        let mut n: u64 = 0;
        while let Some(&b) = self.s.get(self.i) {
            if !b.is_ascii_digit() {
                break;
            }
            n = n.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
            self.i += 1;
        }
        (self.i > start).then_some(n)
    }

    /// `{"text":"..."}` or `{"bytes":"..."}`.
    fn data(&mut self) -> Option<Data<'a>> {
        if self.try_lit(b"{\"text\":") {
            let text = self.string()?;
            self.lit(b"}")?;
            Some(Data {
                text: Some(Text(text)),
                bytes: None,
            })
        } else {
            self.lit(b"{\"bytes\":")?;
            let bytes = self.string()?;
            self.lit(b"}")?;
            Some(Data {
                text: None,
                bytes: Some(Text(bytes)),
            })
        }
    }

    /// A JSON string: borrowed when it has no escapes, else unescaped.
    fn string(&mut self) -> Option<Cow<'a, [u8]>> {
        self.lit(b"\"")?;
        let start = self.i;
        let rest = &self.s[start..];
        let end = rest.iter().position(|&b| b == b'"' || b == b'\\')?;
        if rest[end] == b'"' {
            self.i += end + 1;
            return Some(Cow::Borrowed(&rest[..end]));
        }
        let mut out = rest[..end].to_vec();
        self.i += end;
        loop {
            let b = *self.s.get(self.i)?;
            self.i += 1;
            match b {
                b'"' => return Some(Cow::Owned(out)),
                b'\\' => {
                    let e = *self.s.get(self.i)?;
                    self.i += 1;
                    match e {
                        b'"' | b'\\' | b'/' => out.push(e),
                        b'b' => out.push(0x08),
                        b'f' => out.push(0x0c),
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'u' => {
                            let mut c = u32::from(self.hex4()?);
                            if (0xD800..0xDC00).contains(&c) {
                                self.lit(b"\\u")?;
                                let low = u32::from(self.hex4()?);
                                if !(0xDC00..0xE000).contains(&low) {
                                    return None;
                                }
                                c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
                            }
                            let ch = char::from_u32(c)?;
                            let mut buf = [0; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        _ => return None,
                    }
                }
                _ => out.push(b),
            }
        }
    }

    fn hex4(&mut self) -> Option<u16> {
        let digits = self.s.get(self.i..self.i + 4)?;
        let text = std::str::from_utf8(digits).ok()?;
        self.i += 4;
        u16::from_str_radix(text, 16).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn serde_match(data: &[u8]) -> Match<'_> {
        serde_json::from_slice(data).unwrap()
    }

    fn same(a: &Match<'_>, b: &Match<'_>) {
        assert_eq!(a.path.to_bytes(), b.path.to_bytes());
        assert_eq!(a.lines.to_bytes(), b.lines.to_bytes());
        assert_eq!(a.line_number, b.line_number);
        assert_eq!(a.absolute_offset, b.absolute_offset);
        assert_eq!(a.submatches.len(), b.submatches.len());
        for (x, y) in a.submatches.iter().zip(&b.submatches) {
            assert_eq!((x.start, x.end), (y.start, y.end));
            assert_eq!(x.matched.to_bytes(), y.matched.to_bytes());
        }
    }

    #[test]
    fn the_fast_path_agrees_with_serde_on_captured_lines() {
        // Data objects of real `rg --json` match events: plain, escaped
        // quotes, tabs and backslashes, unicode escapes with a surrogate
        // pair, the base64 bytes form, several submatches.
        let lines: [&[u8]; 5] = [
            br#"{"path":{"text":"./a.rs"},"lines":{"text":"fn useState() {}\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"useState"},"start":3,"end":11}]}"#,
            br#"{"path":{"text":"src/\"q\".go"},"lines":{"text":"\tx := \"a\\b\" // Widget\r\n"},"line_number":12,"absolute_offset":340,"submatches":[{"match":{"text":"Widget"},"start":19,"end":25}]}"#,
            br#"{"path":{"text":"u.txt"},"lines":{"text":"caf\u00e9 \ud83d\ude00 Widget\u0001\n"},"line_number":3,"absolute_offset":9,"submatches":[{"match":{"text":"Widget"},"start":11,"end":17}]}"#,
            br#"{"path":{"bytes":"Li9u/20udHh0"},"lines":{"bytes":"Y2Fm6SB1c2VTdGF0ZQo="},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"useState"},"start":5,"end":13},{"match":{"text":"useState"},"start":20,"end":28}]}"#,
            br#"{"path":{"text":"x"},"lines":{"text":"no match list\n"},"line_number":null,"absolute_offset":0,"submatches":[]}"#,
        ];
        for line in lines {
            let fast = parse_match(line)
                .unwrap_or_else(|| panic!("fast path refused {}", String::from_utf8_lossy(line)));
            same(&fast, &serde_match(line));
        }
    }

    #[test]
    fn other_shapes_fall_back() {
        for line in [
            &br#"{"lines":{"text":"x"},"path":{"text":"a"},"line_number":1,"absolute_offset":0,"submatches":[]}"#[..],
            br#"{"path":{"text":"a"},"lines":{"text":"x"},"line_number":1,"absolute_offset":0,"submatches":[],"extra":1}"#,
            br#"{"path":{"text":"a"},"lines":{"text":"bad \q"},"line_number":1,"absolute_offset":0,"submatches":[]}"#,
            br#"{"path":{"text":"a"#,
        ] {
            assert!(parse_match(line).is_none(), "{}", String::from_utf8_lossy(line));
        }
    }
}
