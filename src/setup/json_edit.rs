//! Edits to a JSON document that keep every byte they do not touch: the
//! members and elements around an edit keep their order, spacing and
//! formatting, so a person's settings file reads as they wrote it.
//!
//! The document is parsed with serde_json into borrowed raw values; each
//! raw value is a slice of the text, which gives its byte span. Edits are
//! byte ranges replaced, applied from the end so earlier spans stay
//! valid.

use std::fmt;

use anyhow::{bail, Result};
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

/// A byte range of the document and what replaces it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// Applies non-overlapping edits.
pub fn apply(text: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| std::cmp::Reverse(e.start));
    let mut out = text.to_string();
    for edit in edits {
        out.replace_range(edit.start..edit.end, &edit.text);
    }
    out
}

/// A value's byte span in the document it was parsed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

/// The span of `raw`, a slice of `doc`.
pub fn span(doc: &str, raw: &RawValue) -> Span {
    let start = raw.get().as_ptr() as usize - doc.as_ptr() as usize;
    Span {
        start,
        end: start + raw.get().len(),
    }
}

/// An object's members in document order, as raw values.
pub struct Members<'a>(pub Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Members<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Members<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Members<'a>, M::Error> {
                let mut members = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, &'de RawValue>()? {
                    members.push((key, value));
                }
                Ok(Members(members))
            }
        }
        deserializer.deserialize_map(V(std::marker::PhantomData))
    }
}

/// The members of the object `raw`, or `None` when it is not an object.
pub fn members(raw: &RawValue) -> Option<Vec<(String, &RawValue)>> {
    serde_json::from_str::<Members>(raw.get()).ok().map(|m| m.0)
}

/// The elements of the array `raw`, or `None` when it is not an array.
pub fn elements(raw: &RawValue) -> Option<Vec<&RawValue>> {
    serde_json::from_str::<Vec<&RawValue>>(raw.get()).ok()
}

/// The whole document as a raw value, or an error saying where it is not
/// valid JSON (`line L, column C`).
pub fn parse(doc: &str) -> Result<&RawValue> {
    match serde_json::from_str::<&RawValue>(doc) {
        Ok(raw) => Ok(raw),
        Err(e) => {
            let what = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            let what = what.strip_suffix(&suffix).unwrap_or(&what);
            bail!(
                "not valid JSON at line {}, column {} ({what})",
                e.line(),
                e.column()
            )
        }
    }
}

/// Where member `index` of an object starts: its key's opening quote.
fn member_start(doc: &str, key: &str, value: Span) -> usize {
    // Back from the value over spaces, the colon and spaces to the key's
    // closing quote; the key's JSON form ends there.
    let before = doc[..value.start].trim_end();
    let before = before.strip_suffix(':').unwrap_or(before).trim_end();
    let quoted = serde_json::to_string(key).unwrap_or_default();
    if before.ends_with(&quoted) {
        return before.len() - quoted.len();
    }
    // An escaped key spelled another way: find its opening quote.
    let bytes = before.as_bytes();
    let mut at = before.len().saturating_sub(1);
    while at > 0 {
        at -= 1;
        if bytes[at] == b'"' && (at == 0 || bytes[at - 1] != b'\\') {
            return at;
        }
    }
    0
}

/// The edit deleting item `index` of a list whose items span `items`
/// (elements, or members from key start to value end), with its comma.
fn delete_item(items: &[Span], index: usize) -> Edit {
    let item = items[index];
    if index > 0 {
        Edit {
            start: items[index - 1].end,
            end: item.end,
            text: String::new(),
        }
    } else if items.len() > 1 {
        Edit {
            start: item.start,
            end: items[1].start,
            text: String::new(),
        }
    } else {
        Edit {
            start: item.start,
            end: item.end,
            text: String::new(),
        }
    }
}

/// Deletes element `index` of the array `raw`.
pub fn delete_element(doc: &str, raw: &RawValue, index: usize) -> Edit {
    let spans: Vec<Span> = elements(raw)
        .unwrap_or_default()
        .iter()
        .map(|e| span(doc, e))
        .collect();
    let mut edit = delete_item(&spans, index);
    if spans.len() == 1 {
        // The last element: leave `[]`.
        let whole = span(doc, raw);
        edit = Edit {
            start: whole.start,
            end: whole.end,
            text: "[]".into(),
        };
    }
    edit
}

/// Deletes member `index` of the object `raw`.
pub fn delete_member(doc: &str, raw: &RawValue, index: usize) -> Edit {
    let spans: Vec<Span> = members(raw)
        .unwrap_or_default()
        .iter()
        .map(|(k, v)| {
            let value = span(doc, v);
            Span {
                start: member_start(doc, k, value),
                end: value.end,
            }
        })
        .collect();
    if spans.len() == 1 {
        let whole = span(doc, raw);
        return Edit {
            start: whole.start,
            end: whole.end,
            text: "{}".into(),
        };
    }
    delete_item(&spans, index)
}

/// The indentation of the line `at` lies on, when only spaces come before
/// it on that line.
fn indent_at(doc: &str, at: usize) -> Option<&str> {
    let line_start = doc[..at].rfind('\n').map_or(0, |i| i + 1);
    let lead = &doc[line_start..at];
    lead.bytes()
        .all(|b| b == b' ' || b == b'\t')
        .then_some(lead)
}

/// The document's indentation unit: that of the first member of the
/// top-level object, else two spaces.
pub fn indent_unit(doc: &str, top: &RawValue) -> String {
    members(top)
        .and_then(|m| {
            let (key, value) = m.first()?;
            let at = member_start(doc, key, span(doc, value));
            indent_at(doc, at)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        })
        .unwrap_or_else(|| "  ".into())
}

/// `value` pretty-printed with `unit`, every line after the first
/// indented by `base`.
pub fn pretty(value: &impl serde::Serialize, unit: &str, base: &str) -> String {
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    let _ = serde::Serialize::serialize(value, &mut ser);
    String::from_utf8_lossy(&out).replace('\n', &format!("\n{base}"))
}

/// Members serialised in the order given (a `serde_json::Map` sorts them).
pub struct Ordered<V>(pub Vec<(String, V)>);

impl<V: serde::Serialize> serde::Serialize for Ordered<V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// The edit appending `item` (already formatted) to the list `raw`
/// (`[...]` or `{...}`) whose items span `items`, at `depth` levels of
/// `unit` (the items' own depth).
fn append_item(
    doc: &str,
    raw: &RawValue,
    items: &[Span],
    item: &str,
    unit: &str,
    depth: usize,
) -> Edit {
    let whole = span(doc, raw);
    match items.last() {
        Some(last) => {
            let indent = indent_at(doc, items[items.len() - 1].start);
            let text = match indent {
                Some(indent) => format!(",\n{indent}{item}"),
                None => format!(", {item}"),
            };
            Edit {
                start: last.end,
                end: last.end,
                text,
            }
        }
        None => {
            let open = &doc[whole.start..whole.start + 1];
            let close = &doc[whole.end - 1..whole.end];
            let inner = unit.repeat(depth);
            let outer = unit.repeat(depth.saturating_sub(1));
            Edit {
                start: whole.start,
                end: whole.end,
                text: format!("{open}\n{inner}{item}\n{outer}{close}"),
            }
        }
    }
}

/// Appends `value` to the array `raw` at `depth` (of its elements).
pub fn append_element(
    doc: &str,
    raw: &RawValue,
    value: &impl serde::Serialize,
    unit: &str,
    depth: usize,
) -> Edit {
    let spans: Vec<Span> = elements(raw)
        .unwrap_or_default()
        .iter()
        .map(|e| span(doc, e))
        .collect();
    let base = base_indent(doc, &spans, unit, depth);
    append_item(doc, raw, &spans, &pretty(value, unit, &base), unit, depth)
}

/// Appends member `key: value` to the object `raw` at `depth` (of its
/// members).
pub fn append_member(
    doc: &str,
    raw: &RawValue,
    key: &str,
    value: &impl serde::Serialize,
    unit: &str,
    depth: usize,
) -> Edit {
    let spans: Vec<Span> = members(raw)
        .unwrap_or_default()
        .iter()
        .map(|(k, v)| {
            let value = span(doc, v);
            Span {
                start: member_start(doc, k, value),
                end: value.end,
            }
        })
        .collect();
    let base = base_indent(doc, &spans, unit, depth);
    let item = format!(
        "{}: {}",
        serde_json::to_string(key).unwrap_or_default(),
        pretty(value, unit, &base)
    );
    append_item(doc, raw, &spans, &item, unit, depth)
}

/// The indentation new items at `depth` get: that of the existing items,
/// else `depth` units.
fn base_indent(doc: &str, items: &[Span], unit: &str, depth: usize) -> String {
    items
        .last()
        .and_then(|s| indent_at(doc, s.start))
        .map(str::to_string)
        .unwrap_or_else(|| unit.repeat(depth))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn deleting_keeps_the_rest_byte_for_byte() {
        let doc = "{\n  \"a\": 1,\n  \"b\": [1,  2, 3],\n  \"c\": {\"x\": true}\n}\n";
        let top = parse(doc).unwrap();
        let m = members(top).unwrap();
        assert_eq!(
            apply(doc, vec![delete_member(doc, top, 0)]),
            "{\n  \"b\": [1,  2, 3],\n  \"c\": {\"x\": true}\n}\n"
        );
        assert_eq!(
            apply(doc, vec![delete_member(doc, top, 2)]),
            "{\n  \"a\": 1,\n  \"b\": [1,  2, 3]\n}\n"
        );
        let b = m[1].1;
        assert_eq!(
            apply(doc, vec![delete_element(doc, b, 1)]),
            doc.replace("[1,  2, 3]", "[1, 3]")
        );
        assert_eq!(
            apply(doc, vec![delete_element(doc, b, 0)]),
            doc.replace("[1,  2, 3]", "[2, 3]")
        );
        let c = m[2].1;
        assert_eq!(
            apply(doc, vec![delete_member(doc, c, 0)]),
            doc.replace("{\"x\": true}", "{}")
        );
    }

    #[test]
    fn appending_follows_the_indentation() {
        let doc = "{\n    \"a\": [\n        1\n    ]\n}";
        let top = parse(doc).unwrap();
        let unit = indent_unit(doc, top);
        assert_eq!(unit, "    ");
        let a = members(top).unwrap()[0].1;
        let out = apply(
            doc,
            vec![append_element(doc, a, &json!({"k": 2}), &unit, 2)],
        );
        assert_eq!(
            out,
            "{\n    \"a\": [\n        1,\n        {\n            \"k\": 2\n        }\n    ]\n}"
        );
        let out = apply(
            doc,
            vec![append_member(doc, top, "z", &json!([]), &unit, 1)],
        );
        assert_eq!(out, "{\n    \"a\": [\n        1\n    ],\n    \"z\": []\n}");
        let empty = "{}";
        let top = parse(empty).unwrap();
        let out = apply(
            empty,
            vec![append_member(empty, top, "z", &json!(1), "  ", 1)],
        );
        assert_eq!(out, "{\n  \"z\": 1\n}");
    }

    #[test]
    fn broken_json_says_where() {
        let e = parse("{\n  \"a\": 1,\n  oops\n}").unwrap_err().to_string();
        assert!(e.contains("line 3, column 3"), "{e}");
    }
}
