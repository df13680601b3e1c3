//! Words, bytes and a cursor over a line: what every language's rules
//! read a line with.

use crate::bytes::find_short;

/// Words never defined by the keyword-less rules (assignments, members,
/// C functions, Go block entries): `if (x) {` is not a method named `if`.
#[rustfmt::skip]
pub(super) fn is_reserved(word: &[u8]) -> bool {
    matches!(
        word,
        b"if" | b"else" | b"elif" | b"elsif" | b"for" | b"foreach" | b"while" | b"do"
        | b"switch" | b"case" | b"return" | b"break" | b"continue" | b"goto" | b"try"
        | b"catch" | b"except" | b"finally" | b"throw" | b"raise" | b"new" | b"delete"
        | b"await" | b"yield" | b"typeof" | b"sizeof" | b"instanceof" | b"in" | b"is" | b"as"
        | b"not" | b"and" | b"or" | b"with" | b"lock" | b"using" | b"import" | b"from"
        | b"package" | b"echo" | b"print" | b"pass" | b"assert" | b"del" | b"global"
        | b"nonlocal" | b"lambda" | b"function" | b"func" | b"def" | b"fn" | b"class"
        | b"struct" | b"enum" | b"interface" | b"type" | b"var" | b"let" | b"const" | b"val"
        | b"fun" | b"go" | b"defer" | b"select" | b"chan" | b"map" | b"range" | b"fallthrough"
        | b"super" | b"this" | b"self" | b"nil" | b"null" | b"true" | b"false" | b"None"
        | b"True" | b"False" | b"then" | b"end" | b"local" | b"until" | b"unless" | b"out"
        | b"ref"
    )
}

/// When `after` (the text after a name) is an assignment `= value` (not
/// `==`, `=>`, `=~`), the value.
pub(super) fn assigned_value(after: &[u8]) -> Option<&[u8]> {
    let a = trim_start(after);
    let value = a.strip_prefix(b"=")?;
    match value.first() {
        Some(b'=' | b'>' | b'~') => None,
        _ => Some(value),
    }
}

/// Strips a trailing qualifier chain (`a::b::`, `Foo<T>::`, `a.b.`) from
/// `s`; the flag says whether anything was stripped. A bare separator
/// (`::NAME`, the global namespace) is stripped too.
pub(super) fn strip_qualifier<'a>(s: &'a [u8], separator: &[u8]) -> (&'a [u8], bool) {
    let mut rest = s;
    let mut stripped = false;
    while let Some(r) = rest.strip_suffix(separator) {
        let mut r = r;
        if r.ends_with(b">") {
            match matching_open_angle(r) {
                Some(open) => r = &r[..open],
                None => break,
            }
        }
        let n = r.iter().rev().take_while(|&&b| is_word_byte(b)).count();
        rest = &r[..r.len() - n];
        stripped = true;
        if n == 0 {
            break;
        }
    }
    (rest, stripped)
}

/// The index of the `<` matching the `>` that ends `s`.
fn matching_open_angle(s: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in s.iter().enumerate().rev() {
        match b {
            b'>' => depth += 1,
            b'<' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Identifier bytes of the query alphabet.
pub(super) fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

pub(super) fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

/// Bytes that continue a word in source text: identifier bytes and any
/// non-ASCII byte (UTF-8 identifiers such as `café`), so `caf` is not a
/// whole word of `café`.
pub(super) fn is_word_byte(b: u8) -> bool {
    is_ident_byte(b) || b >= 0x80
}

pub(super) fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0c' | b'\x0b')
}

pub(super) fn trim_newline(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

pub(super) fn trim_start(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|&&b| is_blank(b)).count();
    &s[n..]
}

pub(super) fn trim_end(s: &[u8]) -> &[u8] {
    let n = s.iter().rev().take_while(|&&b| is_blank(b)).count();
    &s[..s.len() - n]
}

pub(super) fn starts_with_word(s: &[u8], word: &[u8]) -> bool {
    s.starts_with(word) && !matches!(s.get(word.len()), Some(&b) if is_word_byte(b))
}

pub(super) fn ends_with_word(s: &[u8], word: &[u8]) -> bool {
    s.ends_with(word) && (s.len() == word.len() || !is_word_byte(s[s.len() - word.len() - 1]))
}

/// Whether `s` holds `word` with no word byte ([`is_word_byte`]) on
/// either side.
pub(crate) fn contains_word(s: &[u8], word: &[u8]) -> bool {
    let mut from = 0;
    while let Some(i) = find_short(&s[from..], word) {
        let start = from + i;
        let end = start + word.len();
        if (start == 0 || !is_word_byte(s[start - 1]))
            && !matches!(s.get(end), Some(&b) if is_word_byte(b))
        {
            return true;
        }
        from = start + 1;
    }
    false
}

/// Skips one annotation or attribute, `@name`, `@a.b.name` or
/// `@name(...)` (Swift, Scala, Dart); false when the cursor is not at one
/// or its arguments do not close on the line.
pub(super) fn skip_annotation(c: &mut Cursor) -> bool {
    c.eat(b"@")
        && skip_dotted_name(c)
        && (c.peek_raw() != Some(b'(') || c.group(b'(', b')') == Group::Closed)
}

/// Skips a name and the `.name` segments touching it (`a.b.C`); false
/// when there is no name, or a dot is not followed by one.
pub(super) fn skip_dotted_name(c: &mut Cursor) -> bool {
    if c.word().is_none() {
        return false;
    }
    while c.peek_raw() == Some(b'.') {
        c.bump();
        if c.word_touching().is_none() {
            return false;
        }
    }
    true
}

/// Skips a `(...)`, `[...]` or `{...}` group starting at the next
/// non-blank byte.
pub(super) fn skip_bracketed(c: &mut Cursor) -> Group {
    match c.peek() {
        Some(b'(') => c.group(b'(', b')'),
        Some(b'[') => c.group(b'[', b']'),
        Some(b'{') => c.group(b'{', b'}'),
        _ => Group::Absent,
    }
}

/// Whether a bracketed group starts at the cursor and closes on the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Group {
    /// The cursor is not at the opening bracket.
    Absent,
    /// The group closes; the cursor is after it.
    Closed,
    /// The group does not close on the line; the cursor is at the end.
    Open,
}

/// A forward-only reader over a byte slice. Methods whose name does not
/// end in `_raw` or `_touching` skip blanks first.
#[derive(Clone, Copy)]
pub(super) struct Cursor<'a> {
    pub(super) s: &'a [u8],
    /// Byte offset of the next unread byte; `i <= s.len()`.
    pub(super) i: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(s: &'a [u8]) -> Self {
        Cursor { s, i: 0 }
    }

    pub(super) fn skip_blanks(&mut self) {
        while self.i < self.s.len() && is_blank(self.s[self.i]) {
            self.i += 1;
        }
    }

    pub(super) fn at_end(&mut self) -> bool {
        self.skip_blanks();
        self.i == self.s.len()
    }

    /// Consumes one byte (the caller has peeked it).
    pub(super) fn bump(&mut self) {
        self.i = (self.i + 1).min(self.s.len());
    }

    pub(super) fn peek(&mut self) -> Option<u8> {
        self.skip_blanks();
        self.peek_raw()
    }

    pub(super) fn peek_raw(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    /// The byte after the next non-blank one.
    pub(super) fn peek_second(&mut self) -> Option<u8> {
        self.skip_blanks();
        self.s.get(self.i + 1).copied()
    }

    pub(super) fn rest(&mut self) -> &'a [u8] {
        self.skip_blanks();
        self.rest_raw()
    }

    pub(super) fn rest_raw(&self) -> &'a [u8] {
        &self.s[self.i..]
    }

    /// The next word, after blanks.
    pub(super) fn word(&mut self) -> Option<&'a [u8]> {
        self.skip_blanks();
        self.word_touching()
    }

    /// The word starting exactly at the cursor.
    pub(super) fn word_touching(&mut self) -> Option<&'a [u8]> {
        let start = self.i;
        while self.i < self.s.len() && is_word_byte(self.s[self.i]) {
            self.i += 1;
        }
        (self.i > start).then(|| &self.s[start..self.i])
    }

    /// Consumes `word` if it is the next whole word.
    pub(super) fn eat_word(&mut self, word: &[u8]) -> bool {
        let save = self.i;
        if self.word() == Some(word) {
            return true;
        }
        self.i = save;
        false
    }

    /// Consumes `punctuation` if the next bytes are exactly it.
    pub(super) fn eat(&mut self, punctuation: &[u8]) -> bool {
        self.skip_blanks();
        if self.rest_raw().starts_with(punctuation) {
            self.i += punctuation.len();
            return true;
        }
        false
    }

    /// Skips a `"..."` string literal with backslash escapes; false when it
    /// does not close on the line.
    pub(super) fn skip_string(&mut self) -> bool {
        if self.peek() != Some(b'"') {
            return false;
        }
        let mut j = self.i + 1;
        while j < self.s.len() {
            match self.s[j] {
                b'\\' => j += 2,
                b'"' => {
                    self.i = j + 1;
                    return true;
                }
                _ => j += 1,
            }
        }
        self.i = self.s.len();
        false
    }

    /// Skips a balanced `open ... close` group starting at the next
    /// non-blank byte. Brackets inside `"..."` strings are ignored, and so
    /// is the `>` of `->` and `=>` when skipping angle brackets.
    pub(super) fn group(&mut self, open: u8, close: u8) -> Group {
        if self.peek() != Some(open) {
            return Group::Absent;
        }
        let mut depth = 0usize;
        let mut in_string = false;
        let mut j = self.i;
        while j < self.s.len() {
            let b = self.s[j];
            if in_string {
                if b == b'\\' {
                    j += 1;
                } else if b == b'"' {
                    in_string = false;
                }
            } else if b == b'"' {
                in_string = true;
            } else if b == open {
                depth += 1;
            } else if b == close
                && !(close == b'>' && j > 0 && matches!(self.s[j - 1], b'-' | b'='))
            {
                depth -= 1;
                if depth == 0 {
                    self.i = j + 1;
                    return Group::Closed;
                }
            }
            j += 1;
        }
        self.i = self.s.len();
        Group::Open
    }
}
