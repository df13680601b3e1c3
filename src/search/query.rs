//! Query planning: what the typed text means, and whether it can be ranked.
//!
//! `--kind auto` reads a text that uses regex syntax as a regex and
//! anything else, code such as `$this->app` or `element?.type` among it,
//! as a literal. A pattern with no literal run of at least
//! [`MIN_ANCHOR_CHARS`] characters (`[a-z]{2,}`, `\w+\s*\(`) cannot be
//! ranked meaningfully and passes through to rg (invariant I1). The
//! identifier whose definitions rank first is derived here too.

use crate::page::query::{Kind, Query, MIN_ANCHOR_CHARS};
use crate::search::rank::lexical::is_identifier;

impl Query {
    /// Plans `text` read as `kind`.
    pub fn plan(text: &str, kind: Kind, ignore_case: bool, word: bool) -> Query {
        let auto = kind == Kind::Auto;
        let kind = match kind {
            Kind::Auto if has_regex_meta(text) && does_regex_work(text) => Kind::Regex,
            Kind::Auto => Kind::Literal,
            other => other,
        };
        let anchor = match kind {
            Kind::Regex => longest_literal_run(text),
            _ => text.to_string(),
        };
        let name = identifier_in(&anchor);
        let words: Vec<String> = match kind {
            Kind::Literal | Kind::Symbol if text.split_whitespace().count() > 1 => {
                // ASCII case only: rg's case folding and `to_lowercase` do
                // not agree on every letter (`İ`).
                let mut seen = std::collections::BTreeSet::new();
                text.split_whitespace()
                    .filter(|w| seen.insert(w.to_ascii_lowercase()))
                    .map(str::to_string)
                    .collect()
            }
            _ => Vec::new(),
        };
        Query {
            text: text.to_string(),
            kind,
            ignore_case,
            word: word || kind == Kind::Symbol,
            anchor,
            name: if words.is_empty() { name } else { None },
            words,
            auto,
        }
    }

    /// A structural pattern: no anchor, no name, no words (nothing of
    /// the text ranking applies to code shapes), never passthrough.
    pub fn structural(text: &str) -> Query {
        Query {
            text: text.to_string(),
            kind: Kind::Structural,
            ignore_case: false,
            word: false,
            anchor: String::new(),
            name: None,
            words: Vec::new(),
            auto: false,
        }
    }

    /// True when `--kind auto` read the text as a regex although it may be
    /// code written as it stands: nothing in it but quantifiers and
    /// anchors (no escape, class or alternation), as in `a+b`, `x ? y`.
    /// Such a search also counts the text as written, and says so.
    pub fn may_be_literal(&self) -> bool {
        self.auto
            && self.kind == Kind::Regex
            && !self.text.contains(['\\', '[', '|'])
            && !self.text.contains(".*")
            && !self.text.contains(".+")
    }

    /// True when the pattern has no literal anchor to rank on. A short
    /// identifier matched as a whole word (`-w ld`, `--kind symbol g`) is
    /// one: it matches the name, not every word that holds its letters.
    pub fn is_passthrough(&self) -> bool {
        let whole_name = self.word && self.fixed_strings() && is_identifier(self.anchor.as_bytes());
        !whole_name && self.anchor.chars().count() < MIN_ANCHOR_CHARS
    }

    /// True when rg should treat the pattern as a fixed string.
    pub fn fixed_strings(&self) -> bool {
        matches!(self.kind, Kind::Literal | Kind::Symbol)
    }

    /// True when the text, read as a literal, would be a reasonable search:
    /// used to suggest `-F` after an invalid regex.
    pub fn looks_literal(&self) -> bool {
        self.kind == Kind::Regex && longest_literal_run(&self.text).len() + 2 >= self.text.len()
            || self.text.chars().filter(|c| c.is_alphanumeric()).count() * 2 >= self.text.len()
    }
}

/// Words that open a question: `how are retries scheduled`, `where is
/// the cookie checked`. Auxiliaries (`is`, `does`, `can`) open one only
/// when the text ends with `?`: `is not defined` is an error message.
const QUESTION_WORDS: [&str; 10] = [
    "how", "what", "where", "which", "why", "when", "who", "whose", "explain", "describe",
];

/// Words a question holds, at most: a longer text is a pasted page (a log,
/// a paragraph), searched as written.
const MAX_QUESTION_WORDS: usize = 64;

/// Whether `text` is a question in words, which `scout search` answers
/// as `scout smart` does: three words or more (at most
/// [`MAX_QUESTION_WORDS`]), most of them words of a sentence (code stands
/// in backquotes), and a question's shape: a question word first (`how`,
/// `where`, ...) or a `?` last. A phrase without that shape (`failed to
/// connect to the server`) is searched as written, as an error message is.
pub fn is_question(text: &str) -> bool {
    let text = text.trim();
    let mut code = false;
    let (mut words, mut prose) = (0, 0);
    for token in text.split_whitespace() {
        words += 1;
        // A token inside backquotes is code the sentence names.
        let quoted = code || token.starts_with('`');
        code ^= token.matches('`').count() % 2 == 1;
        let bare = token.trim_matches(|c: char| ",.;:!?\"'()`".contains(c));
        if quoted
            || !bare.is_empty()
                && bare
                    .chars()
                    .all(|c| c.is_alphabetic() || c == '\'' || c == '-' || c == '/')
        {
            prose += 1;
        }
    }
    if !(3..=MAX_QUESTION_WORDS).contains(&words) || prose * 4 < words * 3 {
        return false;
    }
    let first = text
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_lowercase();
    let first = first.trim_end_matches(|c: char| !c.is_alphabetic());
    QUESTION_WORDS.contains(&first) || text.ends_with('?')
}

/// The identifier a definition would name: the whole anchor when it is
/// one, else its longest identifier-shaped run of 3 or more bytes.
fn identifier_in(anchor: &str) -> Option<String> {
    if is_identifier(anchor.as_bytes()) {
        return Some(anchor.to_string());
    }
    anchor
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| w.len() >= MIN_ANCHOR_CHARS && is_identifier(w.as_bytes()))
        .max_by_key(|w| w.len())
        .map(str::to_string)
}

/// True when `text` holds a character that is special in rg's regex syntax.
pub fn has_regex_meta(text: &str) -> bool {
    text.chars().any(|c| "\\.^$*+?()[]{}|".contains(c))
}

/// Whether `text` (which has regex metacharacters) uses one as only a
/// regex would: an escape (`\w`, `\.`), a quantifier (`*`, `+`, `{2,}`,
/// `?` other than JavaScript's `?.`), an alternation of non-empty branches (`a|b`),
/// a class with a range or a negation (`[a-z]`, `[^x]`) or followed by a
/// quantifier, `^` at the start or `$` at the end. Code uses the rest as
/// it is written, and rg's reading of them matches something else or
/// nothing: `$this->app` (an end of line before `this`), `element?.type`,
/// `items[0]`, `f()`, `a || b` (an empty branch matches every line),
/// `os.path.join` (a dot matches any character, the dot too).
fn does_regex_work(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let quantified = |j: usize| matches!(chars.get(j), Some('*' | '+' | '?' | '{'));
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => return true,
            '*' | '+' if i > 0 => return true,
            '?' if i > 0 && !matches!(chars.get(i + 1), Some('.')) => return true,
            '{' if counted_repetition(&chars[i + 1..]) => return true,
            '^' if i == 0 => return true,
            '|' if i > 0
                && !matches!(chars[i - 1], '|' | '(')
                && !matches!(chars.get(i + 1), None | Some('|' | ')')) =>
            {
                return true
            }
            '$' if i + 1 == chars.len() => return true,
            // A dot that touches no word (`.`, `..`, `a . b`) means any
            // character; `os.path`, `.then(` and `foo.` are code.
            '.' if !touches_word(&chars, i) => return true,
            '[' => {
                let (_, width) = atom(&chars, i);
                let class = &chars[i + 1..(i + width - 1).max(i + 1)];
                let ranged = class.first() == Some(&'^')
                    || class.windows(3).any(|w| w[1] == '-' && w[0] != '\\');
                if ranged || quantified(i + width) {
                    return true;
                }
                i += width;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// Whether the character at `i` has a word character (alphanumeric, `_`)
/// right before or after it.
fn touches_word(chars: &[char], i: usize) -> bool {
    let word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
    word(i.checked_sub(1).and_then(|j| chars.get(j))) || word(chars.get(i + 1))
}

/// Whether `rest` (what follows a `{`) is a repetition count: `2}`,
/// `2,}`, `2,5}`, `,5}`.
fn counted_repetition(rest: &[char]) -> bool {
    let Some(close) = rest.iter().position(|&c| c == '}') else {
        return false;
    };
    let inside = &rest[..close];
    !inside.is_empty()
        && inside.iter().any(char::is_ascii_digit)
        && inside.iter().all(|&c| c.is_ascii_digit() || c == ',')
        && inside.iter().filter(|&&c| c == ',').count() <= 1
}

/// The longest run of characters a match of the regex `pattern` must
/// contain literally. Conservative: any construct it does not understand
/// ends the run. Top-level alternation takes the weakest branch, since any
/// branch may be the one that matches.
pub fn longest_literal_run(pattern: &str) -> String {
    let branches = split_top_level_alternation(pattern);
    if branches.len() > 1 {
        return branches
            .iter()
            .map(|b| longest_literal_run(b))
            .min_by_key(|run| run.chars().count())
            .unwrap_or_default();
    }
    let chars: Vec<char> = pattern.chars().collect();
    let mut runs = Runs::default();
    let mut i = 0;
    while i < chars.len() {
        let (literal, width) = atom(&chars, i);
        i = match literal {
            Some(ch) => after_literal(&chars, i, width, ch, &mut runs),
            None => after_construct(&chars, i, width, &mut runs),
        };
    }
    runs.end();
    runs.best
}

/// The literal runs of a pattern seen so far: the longest, and the one
/// being read.
#[derive(Default)]
struct Runs {
    best: String,
    run: String,
}

impl Runs {
    fn push(&mut self, ch: char) {
        self.run.push(ch);
    }

    /// Ends the current run, keeping it if it is the longest.
    fn end(&mut self) {
        if self.run.chars().count() > self.best.chars().count() {
            self.best = self.run.clone();
        }
        self.run.clear();
    }
}

/// The atom at `chars[i]`: the character it matches literally, if it is
/// one, and how many characters it spans (an escape 2, a class all of it).
fn atom(chars: &[char], i: usize) -> (Option<char>, usize) {
    match chars[i] {
        '\\' => {
            let literal = match chars.get(i + 1).copied() {
                Some(n) if n.is_ascii_punctuation() => Some(n),
                Some('t') => Some('\t'),
                _ => None,
            };
            (literal, escape_width(chars, i))
        }
        '[' => {
            // Skip the class: `[]...]` and `[^]...]` hold a literal `]`.
            let mut j = i + 1;
            if chars.get(j) == Some(&'^') {
                j += 1;
            }
            if chars.get(j) == Some(&']') {
                j += 1;
            }
            let mut depth = 1;
            while j < chars.len() && depth > 0 {
                match chars[j] {
                    '\\' => j += 1,
                    '[' => depth += 1,
                    ']' => depth -= 1,
                    _ => {}
                }
                j += 1;
            }
            (None, j - i)
        }
        '.' | '^' | '$' | '(' | ')' | '|' | '*' | '?' | '+' | '{' => (None, 1),
        other => (Some(other), 1),
    }
}

/// How many characters the escape at `chars[i]` (a `\`) spans: 2, or
/// more for a code point (`\x41`, `\u{1F600}`) or a class (`\pL`,
/// `\p{Greek}`), whose characters are not literals of the pattern
/// (`\x41bc` anchored on "41bc", which no match holds).
fn escape_width(chars: &[char], i: usize) -> usize {
    let digits = match chars.get(i + 1) {
        Some('x') => 2,
        Some('u') => 4,
        Some('U') => 8,
        Some('p' | 'P') => 1,
        _ => return 2,
    };
    if chars.get(i + 2) == Some(&'{') {
        let close = (i + 2..chars.len()).find(|&j| chars[j] == '}');
        return close.map_or(chars.len() - i, |j| j + 1 - i);
    }
    (2 + digits).min(chars.len() - i)
}

/// Reads the literal `ch` (the atom at `i`, `width` wide) with the
/// quantifier after it, if any; returns where reading goes on. A
/// quantifier makes the character optional or repeated: `ab?c` requires
/// only `a` then `c`, not "abc".
fn after_literal(chars: &[char], i: usize, width: usize, ch: char, runs: &mut Runs) -> usize {
    match chars.get(i + width).copied() {
        Some('*' | '?') => {
            runs.end();
            i + width
        }
        Some('{') => {
            // `x{0,3}` makes x optional; `x{2}` requires it at least once.
            let optional = chars.get(i + width + 1) == Some(&'0');
            if optional {
                runs.end();
            } else {
                // The last repetition of `ch` is followed by what comes next.
                runs.push(ch);
                runs.end();
                runs.push(ch);
            }
            let close = (i + width..chars.len()).find(|&j| chars[j] == '}');
            close.map_or(chars.len(), |j| j + 1)
        }
        Some('+') => {
            runs.push(ch);
            runs.end();
            runs.push(ch);
            i + width + 1
        }
        _ => {
            runs.push(ch);
            i + width
        }
    }
}

/// Reads the construct at `i` that is not a literal (`width` wide), which
/// ends the current run; returns where reading goes on.
fn after_construct(chars: &[char], i: usize, width: usize, runs: &mut Runs) -> usize {
    runs.end();
    match (chars[i], chars.get(i + 1)) {
        // A repetition count such as `{2,5}`.
        ('{', _) => {
            (i..chars.len())
                .find(|&j| chars[j] == '}')
                .unwrap_or(chars.len())
                + 1
        }
        // `(?i)` and friends change how everything after reads; `(?i:...)`
        // and `(?:...)` are groups like any other (`(?:abcd|x)` was
        // anchored on "abcd").
        ('(', Some('?'))
            if chars
                .get(i + 2..)
                .and_then(|rest| rest.iter().find(|c| **c == ')' || **c == ':'))
                != Some(&':') =>
        {
            (i..chars.len())
                .find(|&j| chars[j] == ')')
                .unwrap_or(chars.len())
                + 1
        }
        ('(', _) => {
            // A group with alternatives, or an optional group, requires
            // none of its literals: skip it whole.
            let close = matching_paren(chars, i);
            // Inside `(?flags:`, the group's body starts after the colon.
            let body = match chars.get(i + 1) {
                Some('?') => (i + 1..close.min(chars.len()))
                    .find(|&j| chars[j] == ':')
                    .map_or(i + 1, |j| j + 1),
                _ => i + width,
            };
            let inner: String = chars[body..close.min(chars.len()).max(body)]
                .iter()
                .collect();
            let quantified = matches!(chars.get(close + 1), Some('?' | '*'))
                || (chars.get(close + 1) == Some(&'{') && chars.get(close + 2) == Some(&'0'));
            if split_top_level_alternation(&inner).len() > 1 || quantified {
                close + 1
            } else {
                body
            }
        }
        _ => i + width,
    }
}

/// The index of the `)` that closes the `(` at `open` (or `chars.len()`).
fn matching_paren(chars: &[char], open: usize) -> usize {
    let (mut depth, mut class, mut j) = (0i32, false, open);
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 1,
            '[' if !class => class = true,
            ']' if class => class = false,
            '(' if !class => depth += 1,
            ')' if !class => {
                depth -= 1;
                if depth == 0 {
                    return j;
                }
            }
            _ => {}
        }
        j += 1;
    }
    chars.len()
}

fn split_top_level_alternation(pattern: &str) -> Vec<&str> {
    let bytes = pattern.as_bytes();
    let mut parts = Vec::new();
    let (mut depth, mut class, mut start, mut i) = (0i32, false, 0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'[' if !class => class = true,
            b']' if class => class = false,
            b'(' if !class => depth += 1,
            b')' if !class => depth -= 1,
            b'|' if !class && depth == 0 => {
                parts.push(&pattern[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(&pattern[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_in_words_is_told_from_a_phrase_and_from_code() {
        for question in [
            "how are retries scheduled after a failed job",
            "Where is the signed session cookie checked?",
            "What does `make_response` do with a tuple?",
            "does the cache expire entries on read?",
            "explain how plugins are loaded",
            "which files hold the on-disk format",
        ] {
            assert!(is_question(question), "{question}");
        }
        for text in [
            "failed to connect to the server",
            "is not defined",
            "is not a function",
            "how",
            "where is",
            "useState",
            "what = compute(a, b) + c?",
            "if (x == null) return;",
            "How to = foo->bar(1, 2); x[3] = y?",
            &"where does the reader stop? ".repeat(20),
        ] {
            assert!(!is_question(text), "{text}");
        }
    }

    #[test]
    fn auto_reads_metacharacters_as_regex_and_the_rest_as_literal() {
        assert_eq!(
            Query::plan("useState", Kind::Auto, false, false).kind,
            Kind::Literal
        );
        assert_eq!(
            Query::plan("use.*State", Kind::Auto, false, false).kind,
            Kind::Regex
        );
        assert_eq!(
            Query::plan("a-b c", Kind::Auto, false, false).kind,
            Kind::Literal
        );
    }

    #[test]
    fn literal_runs_of_regexes() {
        for (pattern, run) in [
            ("useState\\(", "useState("),
            ("get\\w+Name", "Name"),
            ("[a-z]{2,}", ""),
            ("\\w+\\s*\\(", "("),
            ("fn\\s+\\w+", "fn"),
            ("colou?r", "colo"),
            ("ab{0,2}cd", "cd"),
            ("x{2}yz", "xyz"),
            ("foo+bar", "obar"),
            ("(?i)hello", "hello"),
            ("parse_(args|opts)", "parse_"),
            ("alpha|be", "be"),
            ("(foo|bar)bazz", "bazz"),
            ("(foo)?barx", "barx"),
            ("[]]abc", "abc"),
            ("\\.unwrap\\(\\)", ".unwrap()"),
        ] {
            assert_eq!(longest_literal_run(pattern), run, "pattern {pattern:?}");
        }
    }

    /// Found by the property tests: the digits of `\x41` and the
    /// letter of `\pL` were read as literals of the pattern, and the
    /// alternatives of a `(?:...)` group as one run.
    #[test]
    fn regression_code_point_and_class_escapes_are_not_literals() {
        for (pattern, run) in [
            ("\\x41bc", "bc"),
            ("\\x{42}abc", "abc"),
            ("\\u0043", ""),
            ("\\u{1F600}xyz", "xyz"),
            ("\\U0001F600", ""),
            ("\\pLabc", "abc"),
            ("\\p{Greek}ab", "ab"),
            ("\\PLxy", "xy"),
            ("\\x4", ""),
            ("(?:abcd|x)", ""),
            ("(?i:abcd|x)", ""),
            ("(?:abcd)ef", "abcd"),
            ("(?i)abc", "abc"),
            ("(?i:abc)", "abc"),
        ] {
            assert_eq!(longest_literal_run(pattern), run, "pattern {pattern:?}");
        }
        assert!(Query::plan("\\x41\\x42\\x43", Kind::Auto, false, false).is_passthrough());
    }

    #[test]
    fn the_automatic_kind_reads_code_as_written_and_regexes_as_regexes() {
        for code in [
            "$this->app",
            "element?.type",
            "items[0]",
            "f()",
            "a || b",
            "os.path.join",
            "${name}",
            "obj[key]",
        ] {
            let query = Query::plan(code, Kind::Auto, false, false);
            assert_eq!(query.kind, Kind::Literal, "{code}");
            assert!(query.auto);
        }
        for regex in [
            "get\\w+Name",
            "^import",
            "end$",
            "foo|bar",
            "(a|b)c",
            "colou?r",
            "x{2}",
            "[a-z]+",
            "[^x]",
            "[ab]*",
            "foo.*bar",
            ".",
            "..",
            "a . b",
        ] {
            let query = Query::plan(regex, Kind::Auto, false, false);
            assert_eq!(query.kind, Kind::Regex, "{regex}");
        }
        assert!(Query::plan("total+1", Kind::Auto, false, false).may_be_literal());
        assert!(!Query::plan("get\\w+Name", Kind::Auto, false, false).may_be_literal());
        assert!(!Query::plan("total+1", Kind::Regex, false, false).may_be_literal());
    }

    #[test]
    fn anchorless_patterns_pass_through() {
        for pattern in ["[a-z]{2,}", "\\w+\\s*\\(", ".", "\\d+", "(a|b)c", "x{2}"] {
            let query = Query::plan(pattern, Kind::Auto, false, false);
            assert!(query.is_passthrough(), "{pattern}");
        }
        assert!(Query::plan("ab", Kind::Literal, false, false).is_passthrough());
        assert!(!Query::plan("abc", Kind::Literal, false, false).is_passthrough());
        // A short name as a whole word is ranked: `-w`, or a symbol.
        assert!(!Query::plan("ld", Kind::Literal, false, true).is_passthrough());
        assert!(!Query::plan("g", Kind::Symbol, false, false).is_passthrough());
        assert!(Query::plan("a+", Kind::Regex, false, true).is_passthrough());
    }

    #[test]
    fn name_is_the_identifier_to_find_definitions_of() {
        assert_eq!(
            Query::plan("useState", Kind::Auto, false, false)
                .name
                .as_deref(),
            Some("useState")
        );
        assert_eq!(
            Query::plan("useState\\(", Kind::Auto, false, false)
                .name
                .as_deref(),
            Some("useState")
        );
        assert_eq!(Query::plan("a.b", Kind::Literal, false, false).name, None);
        let multi = Query::plan("parse args", Kind::Auto, false, false);
        assert_eq!(multi.words, ["parse", "args"]);
        assert_eq!(multi.name, None);
        let repeated = Query::plan("the cat and The dog the", Kind::Auto, false, false);
        assert_eq!(repeated.words, ["the", "cat", "and", "dog"]);
        let same = Query::plan("Path path", Kind::Auto, false, false);
        assert_eq!(
            (same.words.as_slice(), same.name),
            (&["Path".to_string()][..], None)
        );
        let dotted = Query::plan("İstanbul i̇stanbul", Kind::Auto, false, false);
        assert_eq!(dotted.words.len(), 2, "only ASCII case is folded");
    }

    #[test]
    fn symbol_implies_whole_word() {
        let q = Query::plan("Foo", Kind::Symbol, false, false);
        assert!(q.word && q.fixed_strings());
    }
}
