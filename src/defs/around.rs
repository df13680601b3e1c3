//! The definitions around a few lines of a file too large to parse whole
//! within a page's parse budget, from a parse of only the pieces of the
//! file that hold those lines.
//!
//! For each line, indentation names the blocks around it: the line's own
//! item (a statement, or a definition when the line opens one), then each
//! line above it indented less, with the item that line starts. The parser
//! is given the opening lines and the closing line of the outer blocks and
//! the whole of an inner one (tree-sitter's included ranges: it reads those
//! bytes as one text, and its positions stay the file's). Smallest pieces
//! first; a piece is trusted only when no syntax error falls outside the
//! body of the block it holds whole (an error inside is the file's or the
//! grammar's, and a whole parse meets it too), and when every definition
//! holding a line spans one of the blocks indentation found, from its
//! opening to its last line. Its definitions then have the ranges and
//! qualified names a whole parse gives them. A line no piece answers gets
//! no definition, as before.
//!
//! Indentation can mislead (a body left unindented, a string at column
//! 0), but only into a piece that is not trusted, or into one that holds
//! fewer blocks than the file: a line may then stand under an outer
//! definition rather than the innermost, or a heading lack an outer
//! qualifier. It cannot put a line under a definition that does not hold
//! it, as each definition's range is the parser's and the indentation's.

use tree_sitter::{Point, Range};

use super::{collect, is_preamble, merge_clauses, parse_ranges, Def};
use crate::lang::Lang;

/// The version of these rules. Cached answers ([`DefsCache::around`](super::cache::DefsCache::around))
/// made under another version are not used: bump it whenever a change
/// here can change what [`around`] returns.
pub const AROUND_RULES: u32 = 1;

/// A block taken whole into a piece is at most this many bytes; a larger
/// one gives its opening and closing lines only.
const WHOLE_BYTES: usize = 12 * 1024;

/// Lines an opening (a signature over several lines) may take.
const HEAD_LINES: usize = 24;

/// The definitions holding any of `lines` (1-based, ascending) in
/// `source`, in the order [`extract`](super::extract) gives, from the
/// pieces of the file that are trusted; `budget` is the bytes left to
/// parse, and is spent (failed pieces too).
pub fn around(lang: Lang, source: &[u8], lines: &[u64], budget: &mut usize) -> Vec<Def> {
    // Lua's source is rewritten before it is parsed (`langs::prepare`).
    if lang == Lang::Lua {
        return Vec::new();
    }
    let text = Text::new(lang, source);
    let rows: Vec<usize> = lines
        .iter()
        .filter_map(|&line| usize::try_from(line).ok()?.checked_sub(1))
        .filter(|&row| row < text.len())
        .collect();
    let mut defs: Vec<Def> = Vec::new();
    let mut answered = vec![false; rows.len()];
    for (i, &row) in rows.iter().enumerate() {
        if answered[i] {
            continue;
        }
        let chain = text.chain(lang, row);
        if chain.is_empty() {
            continue;
        }
        for pieces in attempts(&text, &chain, row) {
            let bytes: usize = pieces
                .ranges
                .iter()
                .map(|r| r.end_byte - r.start_byte)
                .sum();
            if bytes > *budget {
                return finish(lang, defs);
            }
            *budget -= bytes;
            let Some(tree) = parse_ranges(lang, source, &pieces.ranges) else {
                continue;
            };
            if !errors_within(&tree, pieces.body) {
                continue;
            }
            // The rows this parse answers for: this one, and those inside
            // the block it held whole, each with the blocks around it.
            let inside = |row: usize| pieces.whole.is_some_and(|(a, b)| a <= row && row <= b);
            let chains: Vec<(usize, usize, Vec<Block>)> = rows
                .iter()
                .enumerate()
                .skip(i)
                .filter(|&(j, &other)| j == i || (!answered[j] && inside(other)))
                .map(|(j, &other)| {
                    let blocks = if j == i {
                        chain.clone()
                    } else {
                        text.chain(lang, other)
                    };
                    (j, other, blocks)
                })
                .collect();
            let holds = |node: tree_sitter::Node| {
                let (first, last) = (node.start_position().row, node.end_position().row);
                chains
                    .iter()
                    .any(|(_, row, _)| first <= *row && *row <= last)
            };
            // The parser and the indentation must agree on each block
            // holding a row: a piece cut short (a body without its closing
            // line) or read wrongly gives a range that agrees with none,
            // and a larger piece is tried.
            let found = collect(lang, &tree, source, &holds, false);
            let agreed = found.iter().all(|def| {
                let mut holding = chains
                    .iter()
                    .filter(|(_, row, _)| def.contains(*row as u32 + 1))
                    .peekable();
                holding.peek().is_none()
                    || holding.any(|(_, _, blocks)| blocks.iter().any(|b| b.spans(def)))
            });
            if !agreed {
                continue;
            }
            for (j, row, _) in &chains {
                answered[*j] = true;
                for def in found.iter().filter(|d| d.contains(*row as u32 + 1)) {
                    if !defs.iter().any(|d| same(d, def)) {
                        defs.push(def.clone());
                    }
                }
            }
            break;
        }
    }
    finish(lang, defs)
}

/// Whether every syntax error in `tree` lies inside the rows `body`
/// (first, last), the body of the block taken whole: an error there is
/// the grammar's or the file's, and a whole parse meets it too. An error
/// in an opening or a closing line means the pieces do not fit together
/// (or the indentation named a line inside a string as a block).
fn errors_within(tree: &tree_sitter::Tree, body: Option<(usize, usize)>) -> bool {
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            let (first, last) = (node.start_position().row, node.end_position().row);
            if !body.is_some_and(|(a, b)| a <= first && last <= b) {
                return false;
            }
        }
        if node.has_error() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return true;
            }
        }
    }
}

/// `defs` in [`extract`](super::extract)'s order, a Haskell or Elixir
/// function's clauses as one.
fn finish(lang: Lang, mut defs: Vec<Def>) -> Vec<Def> {
    defs.sort_by_key(|d| (d.start_line, std::cmp::Reverse(d.end_line)));
    if matches!(lang, Lang::Haskell | Lang::Elixir) {
        merge_clauses(&mut defs);
    }
    defs
}

/// Whether two definitions are one (found again by a second piece).
fn same(a: &Def, b: &Def) -> bool {
    a.start_line == b.start_line && a.end_line == b.end_line && a.name == b.name
}

/// One block around a line: its first line (with the comments and
/// attributes just above it), its last, and its indentation, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Block {
    first: usize,
    last: usize,
    indent: usize,
    /// The last line of its opening ([`Text::head_end`]), if found.
    head: Option<usize>,
    /// Its first line below the comments and attributes above it.
    code: usize,
}

impl Block {
    /// Whether `def`'s range is this block's: it ends on the block's last
    /// line and starts in its opening (or on an attribute above it).
    fn spans(&self, def: &Def) -> bool {
        let (first, last) = (def.start_line as usize - 1, def.end_line as usize - 1);
        last == self.last && self.first <= first && first <= self.opening()
    }

    /// The last line of its opening, or its first line of code when the
    /// opening's end was not found.
    fn opening(&self) -> usize {
        self.head.unwrap_or(self.code).max(self.code)
    }

    /// The rows where a syntax error may fall when this block is taken
    /// whole: its body, below its opening and above its last line (an
    /// error on the last line is most often a block cut short, a `;` or a
    /// closing word left out).
    fn body(&self) -> (usize, usize) {
        (self.opening() + 1, self.last.saturating_sub(1))
    }
}

/// What one parse is given: the byte ranges, and the block among them
/// taken whole, if any.
struct Pieces {
    ranges: Vec<Range>,
    whole: Option<(usize, usize)>,
    /// The rows where a syntax error is the file's, not the pieces': the
    /// body of the block taken whole.
    body: Option<(usize, usize)>,
}

/// The pieces to try for `row`, smallest first: its own block reduced to
/// its opening and closing lines when the row opens it and it is too large
/// to take whole; then each block of `chain`, inner to outer, taken whole
/// while it is small enough, with the opening and closing lines of the
/// blocks around it.
fn attempts(text: &Text, chain: &[Block], row: usize) -> Vec<Pieces> {
    let mut tries = Vec::new();
    let own = chain[0];
    if text.bytes(own) > WHOLE_BYTES {
        if let Some(head) = own.head {
            if row <= head {
                if let Some(ranges) = text.ranges(chain, None) {
                    tries.push(Pieces {
                        ranges,
                        whole: None,
                        body: None,
                    });
                }
            }
        }
    }
    for (k, block) in chain.iter().enumerate() {
        if text.bytes(*block) > WHOLE_BYTES {
            break;
        }
        if let Some(ranges) = text.ranges(&chain[k..], Some(*block)) {
            tries.push(Pieces {
                ranges,
                whole: Some((block.first, block.last)),
                body: Some(block.body()),
            });
        }
    }
    tries
}

/// A source's lines: where each starts, and what the walks ask of one.
struct Text<'a> {
    source: &'a [u8],
    starts: Vec<usize>,
    /// The rows opening and closing each string in triple quotes (`"""`
    /// or `'''` over several lines: docstrings, heredocs, text blocks),
    /// in order. The lines between are text, often with code examples at
    /// any indentation, which the walks must not read as blocks.
    strings: Vec<(usize, usize)>,
}

impl<'a> Text<'a> {
    fn new(lang: Lang, source: &'a [u8]) -> Text<'a> {
        let mut starts = vec![0];
        starts.extend(
            memchr::memchr_iter(b'\n', source)
                .map(|i| i + 1)
                .filter(|&start| start < source.len()),
        );
        let mut text = Text {
            source,
            starts,
            strings: Vec::new(),
        };
        text.strings = text.triple_quoted();
        if matches!(lang, Lang::Bash | Lang::Ruby | Lang::Php) {
            text.strings.extend(text.here_documents());
            text.strings.sort_unstable();
        }
        text
    }

    /// The rows opening and ending each here-document (`<<EOF` ...
    /// `EOF`, `<<~SQL`, `<<<'EOT'`): its text may sit at column 0, or hold
    /// a `}` there. A word not in quotes must start in upper case (`x <<
    /// y` is a shift or an append); one whose end is not found is none.
    fn here_documents(&self) -> Vec<(usize, usize)> {
        let mut docs = Vec::new();
        let mut row = 0;
        while row < self.len() {
            let line = self.trimmed(row);
            let word = memchr::memmem::find(line, b"<<").and_then(|at| here_word(&line[at + 2..]));
            let end = word.and_then(|word| {
                (row + 1..self.len()).find(|&r| {
                    let t = self.trimmed(r);
                    t == word || t.strip_suffix(b";") == Some(word)
                })
            });
            match end {
                Some(end) => {
                    docs.push((row, end));
                    row = end + 1;
                }
                None => row += 1,
            }
        }
        docs
    }

    /// The rows of the strings in triple quotes that span lines: each
    /// `"""` (or `'''`) opens one where none is open, and closes the one
    /// it opened.
    fn triple_quoted(&self) -> Vec<(usize, usize)> {
        let mut quotes: Vec<(usize, u8)> = memchr::memmem::find_iter(self.source, b"\"\"\"")
            .map(|at| (at, b'"'))
            .chain(memchr::memmem::find_iter(self.source, b"\'\'\'").map(|at| (at, b'\'')))
            .collect();
        quotes.sort_unstable();
        let mut strings = Vec::new();
        let mut open: Option<(usize, u8)> = None;
        for (at, quote) in quotes {
            match open {
                None => open = Some((at, quote)),
                // A run of four or more quotes is one delimiter.
                Some((start, q)) if q == quote && at >= start + 3 => {
                    let (first, last) = (self.row_of(start), self.row_of(at));
                    if last > first {
                        strings.push((first, last));
                    }
                    open = None;
                }
                Some(_) => {}
            }
        }
        strings
    }

    /// The row holding byte `at`.
    fn row_of(&self, at: usize) -> usize {
        self.starts.partition_point(|&s| s <= at) - 1
    }

    /// The string spanning lines whose text holds `row` (below its first
    /// line, down to its last), if any: its first and last rows.
    fn string_around(&self, row: usize) -> Option<(usize, usize)> {
        let after = self.strings.partition_point(|&(first, _)| first < row);
        after
            .checked_sub(1)
            .map(|i| self.strings[i])
            .filter(|&(_, last)| row <= last)
    }

    fn len(&self) -> usize {
        self.starts.len()
    }

    /// Bytes of `row`, its newline included.
    fn span(&self, row: usize) -> (usize, usize) {
        let end = self
            .starts
            .get(row + 1)
            .copied()
            .unwrap_or(self.source.len());
        (self.starts[row], end)
    }

    /// `row`'s text without its indentation and its line end.
    fn trimmed(&self, row: usize) -> &'a [u8] {
        let (start, end) = self.span(row);
        self.source[start..end].trim_ascii()
    }

    /// `row`'s indentation in bytes; `None` for a blank line.
    fn indent(&self, row: usize) -> Option<usize> {
        let (start, end) = self.span(row);
        let line = &self.source[start..end];
        let body = line.trim_ascii_start();
        (!body.is_empty()).then(|| line.len() - body.len())
    }

    /// The indentation of a line the walks read, `None` for one they pass
    /// over: blank, a comment, a preprocessor line.
    fn level(&self, lang: Lang, row: usize) -> Option<usize> {
        if self.string_around(row).is_some() {
            return None;
        }
        self.indent(row)
            .filter(|_| !passed_over(lang, self.trimmed(row)))
    }

    fn bytes(&self, block: Block) -> usize {
        self.span(block.last).1 - self.starts[block.first]
    }

    /// The blocks around `row`, inner to outer: the item `row` belongs to,
    /// then the item of each line above it indented less than the last. A
    /// line of a string's text (in triple quotes) has the blocks of the
    /// line opening the string.
    fn chain(&self, lang: Lang, row: usize) -> Vec<Block> {
        // A line of a string's text has the blocks of the line opening it.
        let row = self.string_around(row).map_or(row, |(first, _)| first);
        let Some(indent) = self.level(lang, row) else {
            return Vec::new();
        };
        let mut chain = vec![self.block(lang, row, indent)];
        let mut limit = indent;
        let mut above = chain[0].first;
        while limit > 0 && above > 0 {
            above -= 1;
            let Some(indent) = self.level(lang, above) else {
                continue;
            };
            if indent < limit {
                let block = self.block(lang, above, indent);
                limit = indent;
                above = block.first;
                chain.push(block);
            }
        }
        chain
    }

    /// The item at `indent` that `row` is a line of: back over the lines
    /// that continue an item (`}`, `) -> T {`, `else`, `end`) to its first
    /// line and the comments and attributes above that, and on through the
    /// lines indented more and those continuing it.
    fn block(&self, lang: Lang, row: usize, indent: usize) -> Block {
        let mut first = row;
        while continues(self.trimmed(first)) {
            let above = (0..first)
                .rev()
                .find(|&r| self.level(lang, r).is_some_and(|i| i <= indent));
            match above {
                Some(r) if self.level(lang, r) == Some(indent) => first = r,
                _ => break,
            }
        }
        let code = first;
        while first > 0
            && self.indent(first - 1) == Some(indent)
            && is_preamble(lang, self.trimmed(first - 1))
        {
            first -= 1;
        }
        // A string opened on the item's lines runs to its closing line,
        // whatever the indentation of the lines between.
        let string_end = |r: usize| {
            self.strings
                .binary_search_by_key(&r, |&(first, _)| first)
                .ok()
                .map(|i| self.strings[i].1)
        };
        let mut last = row.max(first);
        if let Some(end) = (first..=last).filter_map(string_end).max() {
            last = last.max(end);
        }
        let mut r = last + 1;
        while r < self.len() {
            match self.level(lang, r) {
                None => {}
                Some(i) if i > indent || (i == indent && continues(self.trimmed(r))) => {
                    last = string_end(r).unwrap_or(r);
                    r = last;
                }
                Some(_) => break,
            }
            r += 1;
        }
        let mut block = Block {
            first,
            last,
            indent,
            head: None,
            code,
        };
        block.head = self.head_end(lang, block);
        block
    }

    /// The last line of `block`'s opening: where its brackets are closed
    /// and its body begins (an unclosed `{`, a line ending in `do`,
    /// `where`, `:`, `=`, `->`, `=>`, `then` or `of`); failing that, the
    /// first line with nothing open that a deeper line follows (Ruby's
    /// `def name`). `None` when no line within reach ends it.
    fn head_end(&self, lang: Lang, block: Block) -> Option<usize> {
        let (mut brackets, mut braces) = (0i32, 0i32);
        // The first line with nothing open that a deeper line follows:
        // the end when no line ends the opening as brackets and words do.
        let mut bare = None;
        let reach = block.last.min(block.first + HEAD_LINES);
        for row in block.first..=reach {
            let line = self.trimmed(row);
            if passed_over(lang, line) || (row < block.last && is_preamble(lang, line)) {
                continue;
            }
            for &b in line {
                match b {
                    b'(' | b'[' => brackets += 1,
                    b')' | b']' => brackets -= 1,
                    b'{' => braces += 1,
                    b'}' => braces -= 1,
                    _ => {}
                }
            }
            let opens = [
                &b"do"[..],
                b"where",
                b":",
                b"=",
                b"->",
                b"=>",
                b"then",
                b"of",
            ]
            .iter()
            .any(|end| ends_with_word(line, end));
            if brackets <= 0 && (braces > 0 || opens) {
                return Some(row);
            }
            let next = (row + 1..=block.last).find_map(|r| self.level(lang, r));
            if bare.is_none()
                && brackets <= 0
                && braces == 0
                && next.is_some_and(|i| i > block.indent)
            {
                bare = Some(row);
            }
        }
        bare
    }

    /// The byte ranges that give the parser `whole` (or, without it,
    /// `blocks[0]`'s opening and closing lines) inside the opening and
    /// closing lines of the blocks around it, outer to inner; `None` when
    /// a block's opening cannot be found or the ranges would not be in
    /// order.
    fn ranges(&self, blocks: &[Block], whole: Option<Block>) -> Option<Vec<Range>> {
        let outer = if whole.is_some() {
            &blocks[1..]
        } else {
            blocks
        };
        let mut rows: Vec<(usize, usize)> = Vec::new();
        for block in outer.iter().rev() {
            rows.push((block.first, block.head?));
        }
        if let Some(block) = whole {
            rows.push((block.first, block.last));
        }
        for block in outer {
            let last = self.trimmed(block.last);
            if self.indent(block.last) == Some(block.indent) && continues(last) {
                rows.push((block.last, block.last));
            }
        }
        if rows.windows(2).any(|w| w[1].0 <= w[0].1) {
            return None;
        }
        let mut ranges: Vec<Range> = Vec::with_capacity(rows.len());
        for (first, last) in rows {
            let (start, _) = self.span(first);
            let (_, end) = self.span(last);
            ranges.push(Range {
                start_byte: start,
                end_byte: end,
                start_point: Point::new(first, 0),
                end_point: self.point(end),
            });
        }
        Some(ranges)
    }

    /// The point of byte `at`, the start of a line or the source's end.
    fn point(&self, at: usize) -> Point {
        let row = self.row_of(at);
        Point::new(row, at - self.starts[row])
    }
}

/// A line the indentation walks pass over: a comment, or a preprocessor
/// or conditional-compilation line (`#if`, often at column 0 inside a
/// body). Rust's `#[` attributes are not such lines.
fn passed_over(lang: Lang, line: &[u8]) -> bool {
    let comments: &[&[u8]] = match lang {
        Lang::Lua | Lang::Luau | Lang::Haskell => &[b"--", b"{-"],
        _ => &[b"//", b"/*", b"*"],
    };
    comments.iter().any(|c| line.starts_with(c)) || (line.starts_with(b"#") && lang != Lang::Rust)
}

/// Whether a line continues the item above it at its own indentation
/// rather than starting one: a bracket (`}`, `) -> T {`, `> {` after
/// generic parameters, an Allman `{`), a return type, an initializer
/// list, a lone `;`, a leading comma, or a word such as `else`, `where`
/// or `end`.
fn continues(line: &[u8]) -> bool {
    if matches!(
        line.first(),
        Some(b'}' | b')' | b']' | b'{' | b'>' | b':' | b';' | b',')
    ) || line.starts_with(b"->")
    {
        return true;
    }
    const WORDS: [&[u8]; 18] = [
        b"end", b"else", b"elif", b"elsif", b"elseif", b"except", b"finally", b"rescue", b"ensure",
        b"catch", b"fi", b"done", b"esac", b"when", b"then", b"until", b"after", b"where",
    ];
    let word = line
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .map_or(line, |n| &line[..n]);
    WORDS.contains(&word)
}

/// The word ending a here-document opened by what follows a `<<`, if it
/// is one: `<` (PHP's `<<<`), `-` or `~`, spaces, then the word, in quotes
/// or starting in upper case.
fn here_word(after: &[u8]) -> Option<&[u8]> {
    let after = after.strip_prefix(b"<").unwrap_or(after);
    let after = after
        .strip_prefix(b"-")
        .or_else(|| after.strip_prefix(b"~"))
        .unwrap_or(after);
    let after = after.trim_ascii_start();
    let quoted = matches!(after.first(), Some(b'\'' | b'"'));
    let after = if quoted { &after[1..] } else { after };
    let len = after
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .unwrap_or(after.len());
    let word = &after[..len];
    let first = *word.first()?;
    (quoted || first.is_ascii_uppercase() || first == b'_').then_some(word)
}

/// Whether `line` ends with `word`, as a word of its own when it is one.
fn ends_with_word(line: &[u8], word: &[u8]) -> bool {
    let Some(before) = line.strip_suffix(word) else {
        return false;
    };
    let is_word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    !(word.iter().all(is_word) && before.last().is_some_and(is_word))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(lang: Lang, source: &str, line: u64) -> Vec<(String, u32, u32)> {
        let mut budget = usize::MAX;
        around(lang, source.as_bytes(), &[line], &mut budget)
            .into_iter()
            .map(|d| (d.name, d.start_line, d.end_line))
            .collect()
    }

    fn owned(rows: &[(&str, u32, u32)]) -> Vec<(String, u32, u32)> {
        rows.iter()
            .map(|&(n, a, b)| (n.to_string(), a, b))
            .collect()
    }

    /// What a whole parse of `source` gives for 1-based `line`, as
    /// [`names`] gives it.
    fn whole(lang: Lang, source: &str, line: u64) -> Vec<(String, u32, u32)> {
        super::super::extract(lang, source.as_bytes())
            .into_iter()
            .filter(|d| d.contains(line as u32))
            .map(|d| (d.name, d.start_line, d.end_line))
            .collect()
    }

    /// A body line deep in a large Swift file: the method and the types
    /// around it, with the ranges a whole parse gives.
    #[test]
    fn a_body_line_gets_its_method_and_the_types_around_it() {
        let filler: String = (0..400)
            .map(|i| format!("    func f{i}() -> Int {{\n        return {i}\n    }}\n"))
            .collect();
        let source = format!(
            "import Foundation\n\nextension ByteBuffer {{\n{filler}    /// Reads.\n    @inlinable\n    public func readInteger<T>(\n        as: T.Type\n    ) -> T? {{\n        let x = 1\n        return nil\n    }}\n}}\n"
        );
        let at = |needle: &str| source.lines().position(|l| l.contains(needle)).unwrap() as u32 + 1;
        let body = at("let x = 1");
        let expected = whole(Lang::Swift, &source, u64::from(body));
        assert_eq!(expected.len(), 2, "{expected:?}");
        assert_eq!(names(Lang::Swift, &source, u64::from(body)), expected);
        // The opening line of a block too large to take whole: that block,
        // from its opening and closing lines alone.
        let last = source.lines().count() as u32;
        let opened = whole(Lang::Swift, &source, 3);
        assert_eq!(opened, owned(&[("extension ByteBuffer", 3, last)]));
        assert_eq!(names(Lang::Swift, &source, 3), opened);
    }

    /// Without a closing line, a body cut short would end the definition
    /// early: only the whole block, whose range the indentation agrees
    /// with, is taken.
    #[test]
    fn a_python_body_is_taken_whole() {
        let source = "x = 1\n\ndef f(client):\n    account = make()\n\n    try:\n        use(account)\n    except E:\n        pass\n\ndef g():\n    pass\n";
        assert_eq!(names(Lang::Python, source, 4), owned(&[("f", 3, 9)]));
        assert_eq!(names(Lang::Python, source, 9), owned(&[("f", 3, 9)]));
    }

    /// An opening with no bracket or word to end it (Ruby's `def name`)
    /// ends where the body's indentation begins.
    #[test]
    fn a_ruby_head_ends_where_the_body_begins() {
        let mut source = String::from("module Top\n  class ID\n");
        for i in 0..600 {
            source.push_str(&format!("    def f{i}\n      {i}\n    end\n\n"));
        }
        source.push_str("    def generate\n      if now\n        ms = 1\n      else\n        @random = next_random\n      end\n    end\n  end\nend\n");
        let row = source.lines().position(|l| l.contains("@random")).unwrap() as u64 + 1;
        let expected = whole(Lang::Ruby, &source, row);
        assert_eq!(expected.len(), 3, "{expected:?}");
        assert_eq!(names(Lang::Ruby, &source, row), expected);
    }

    /// An error inside the block taken whole is the grammar's or the
    /// file's, as a whole parse meets it: the definitions around it stand.
    #[test]
    fn an_error_inside_the_whole_block_is_not_the_pieces() {
        let source = "fn f() {\n    let x = ;\n    target();\n}\n";
        assert_eq!(names(Lang::Rust, source, 3), owned(&[("f", 1, 4)]));
    }

    /// Code in a docstring is text: its lines stand under the definition
    /// holding the string, never under one the example seems to open.
    #[test]
    fn code_in_a_docstring_is_text() {
        let mut source = String::from("defmodule Top do\n  @moduledoc \"\"\"\n  Imagine a counter as a GenServer:\n\n      defmodule Counter do\n        def start_link(_) do\n          GenServer.start_link(__MODULE__, :ok)\n        end\n      end\n  \"\"\"\n\n");
        for i in 0..900 {
            source.push_str(&format!("  def f{i}(x) do\n    x + {i}\n  end\n\n"));
        }
        source.push_str("end\n");
        let got = names(Lang::Elixir, &source, 7);
        assert!(
            got.iter().all(|(name, _, _)| !name.contains("start_link")),
            "{got:?}"
        );
        assert_eq!(got, whole(Lang::Elixir, &source, 7));
    }

    /// A here-document's text is text, even a `}` at column 0.
    #[test]
    fn a_here_document_is_text() {
        let mut source = String::new();
        for i in 0..600 {
            source.push_str(&format!("f{i}() {{\n  echo {i}\n}}\n\n"));
        }
        let first = source.lines().count() as u32 + 1;
        source.push_str("deploy() {\n  payload=$(cat <<HEREDOC\n{\n  \"a\": 1\n}\nHEREDOC\n  )\n  send \"$payload\"\n}\n");
        let last = source.lines().count() as u32;
        let expected = owned(&[("deploy", first, last)]);
        assert_eq!(names(Lang::Bash, &source, u64::from(first) + 1), expected);
        assert_eq!(names(Lang::Bash, &source, u64::from(last) - 1), expected);
    }

    /// A piece that does not parse cleanly yields nothing rather than a
    /// guess.
    #[test]
    fn a_piece_that_does_not_parse_gives_nothing() {
        let source = "fn f() {\n    let s = \"\n}\nfn g() {\n\";\n    body();\n}\n";
        assert!(names(Lang::Rust, source, 6).is_empty());
    }

    /// The budget bounds what is parsed: with none left, nothing is.
    #[test]
    fn no_budget_no_parse() {
        let source = "def f():\n    return 1\n";
        let mut budget = 0;
        assert!(around(Lang::Python, source.as_bytes(), &[2], &mut budget).is_empty());
        let mut budget = 1 << 20;
        let defs = around(Lang::Python, source.as_bytes(), &[2], &mut budget);
        assert_eq!(defs.len(), 1);
        assert!(budget < 1 << 20);
    }
}
