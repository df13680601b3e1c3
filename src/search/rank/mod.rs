//! Ranking: integer scores for lines and files, no I/O, deterministic.
//!
//! Signals, strongest first: the file defines the queried name; term
//! coverage (multi-word fallback); the file name matches the query;
//! whole-word and exact-case matches; saturating hit density. Priors push
//! tests/examples, vendored/generated/minified files and `.d.ts` down, but
//! nothing is dropped for its path. Ties break on the path's bytes, so the
//! order never depends on which rg thread finished first (invariant I5).

pub mod lexical;
pub mod role;

use crate::lang::Lang;
use crate::page::query::Query;
use crate::page::tally::{FileTally, Ranked, Score};

/// A file that defines the queried name outranks every file that does not.
pub const DEF_FILE: i64 = 100_000;
/// A defining file whose definition is the name's own declaration (a
/// type, a free function: [`role`]) outranks the files where the name is
/// only a member or a local.
pub const PRIMARY_DEF_FILE: i64 = 20_000;
/// A defining file among tests, test helpers, examples or fixtures ranks
/// after every defining file of the source, primary or not; it
/// still outranks every file that does not define the name.
const PRIOR_TEST_DEF: i64 = -30_000;
/// A file whose only "definitions" are indented assignments (`    x = ...`,
/// `  const x = ...`): often locals, so they rank below real definitions
/// but above plain usages.
pub const WEAK_DEF_FILE: i64 = 5_000;
/// Per query word a file covers, in the any-word fallback.
pub const PER_WORD_COVERED: i64 = 10_000;
const NAME_EQUALS_FILE: i64 = 3_000;
const NAME_IN_FILE: i64 = 1_000;
const EXACT_WORD: i64 = 800;
const WORD: i64 = 300;
const DENSITY_MAX: i64 = 2_000;
/// Hits at which density reaches half of [`DENSITY_MAX`].
const DENSITY_HALF: i64 = 8;
const PRIOR_TEST: i64 = -2_500;
const PRIOR_VENDORED: i64 = -4_000;
const PRIOR_DECLARATIONS: i64 = -3_000;

/// Line scores: which of a file's lines are worth quoting first.
pub const LINE_DEF: i32 = 1_000;
/// On top of [`LINE_DEF`], for the name's own declaration: quoted first
/// in its file.
pub const LINE_PRIMARY: i32 = 200;
/// An import, re-export or `use` line is quoted after the real uses:
/// below a whole-word use in any case, above a match inside a longer
/// word (`CDataNode` for `DataNode`), which is no use at all.
const LINE_IMPORT: i32 = -(LINE_WORD + LINE_EXACT) / 2;
const LINE_WORD: i32 = 40;
const LINE_EXACT: i32 = 20;

/// What one matching line says about the query.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LineSignals {
    /// The line defines the queried name.
    pub def: bool,
    /// The definition is the name's own declaration, not a member or a
    /// local ([`role::is_primary_definition`]); only with `def`.
    pub primary: bool,
    /// The line imports or re-exports ([`role::is_import`]).
    pub import: bool,
    /// The line assigns the name in an indented block: a definition by
    /// the lexical rules, but often a local variable.
    pub weak_def: bool,
    /// Some match on the line is a whole word.
    pub word: bool,
    /// Some match has exactly the query's case.
    pub exact: bool,
    /// Bit i set: query word i occurs on the line (multi-word queries).
    pub covered: u32,
}

impl LineSignals {
    /// The line's score among its file's lines (higher quotes first).
    pub fn score(self) -> i32 {
        let mut score = definition_points(self.def, self.primary);
        if !self.def && self.weak_def {
            score += LINE_DEF / 4;
        }
        if self.word {
            score += LINE_WORD;
        }
        if self.exact {
            score += LINE_EXACT;
        }
        if self.import {
            score += LINE_IMPORT;
        }
        score + self.covered.count_ones() as i32 * LINE_WORD
    }
}

/// The points a line earns for defining the name ([`LINE_DEF`]), and for
/// declaring it itself ([`LINE_PRIMARY`]): the part of its score that the
/// parser's verdict replaces.
pub fn definition_points(def: bool, primary: bool) -> i32 {
    match (def, primary) {
        (true, true) => LINE_DEF + LINE_PRIMARY,
        (true, false) => LINE_DEF,
        (false, _) => 0,
    }
}

impl Score {
    fn add(&mut self, signal: &'static str, points: i64) {
        if points != 0 {
            self.total += points;
            self.signals.push((signal, points));
        }
    }
}

/// Scores lines and files for one query.
#[derive(Debug, Clone)]
pub struct Scorer {
    /// The identifier whose definitions rank first.
    name: Option<Vec<u8>>,
    /// The literal text a match should equal to count as exact case.
    exact: Vec<u8>,
    /// Lower-cased words of a multi-word query.
    words: Vec<Vec<u8>>,
    /// Lower-cased alphanumerics of the name, for file-name matching.
    name_key: Vec<u8>,
    /// `-i`: the name defined in any ASCII case counts, as rg matched it.
    ignore_case: bool,
}

impl Scorer {
    pub fn new(query: &Query) -> Scorer {
        // Only an identifier can be defined: checked here once, so that
        // each line asks the lexical rules without checking it again.
        let name = query
            .name
            .as_ref()
            .map(|n| n.as_bytes().to_vec())
            .filter(|n| lexical::is_identifier(n));
        let key_source = query.name.as_deref().unwrap_or(&query.anchor);
        Scorer {
            name,
            exact: query.anchor.as_bytes().to_vec(),
            words: query
                .words
                .iter()
                .map(|w| w.to_ascii_lowercase().into_bytes())
                .collect(),
            name_key: name_key(key_source.as_bytes()),
            ignore_case: query.ignore_case,
        }
    }

    /// The signals of one matching line. `spans` are the byte ranges of the
    /// matches within `line`.
    pub fn line(&self, lang: Option<Lang>, line: &[u8], spans: &[(usize, usize)]) -> LineSignals {
        let mut signals = LineSignals::default();
        for &(start, end) in spans {
            let Some(text) = line.get(start..end) else {
                continue;
            };
            let before = start.checked_sub(1).and_then(|i| line.get(i)).copied();
            let after = line.get(end).copied();
            if !before.is_some_and(is_word_byte) && !after.is_some_and(is_word_byte) {
                signals.word = true;
            }
            if !self.exact.is_empty() && contains(text, &self.exact) {
                signals.exact = true;
            }
            if !self.words.is_empty() {
                for (i, word) in self.words.iter().enumerate().take(32) {
                    if contains_ignoring_ascii_case(text, word) {
                        signals.covered |= 1 << i;
                    }
                }
            }
        }
        if let (Some(lang), Some(name)) = (lang, self.defined_name(line, spans)) {
            if lexical::defines_identifier(lang, line, name) {
                if is_indented_assignment(line, name) || is_field(lang, line, name) {
                    signals.weak_def = true;
                } else {
                    signals.def = true;
                    signals.primary = role::is_primary_definition(lang, line, name);
                }
            }
        }
        if let Some(lang) = lang {
            signals.import = !signals.def && !signals.weak_def && role::is_import(lang, line);
        }
        signals
    }

    /// The name the lexical rules look for on `line`: the query's, or
    /// with `-i` the first match that spells it in another case
    /// (`parseHeader` for `-i parseheader`), so that a definition is one
    /// whatever case the query was typed in.
    fn defined_name<'a>(&'a self, line: &'a [u8], spans: &[(usize, usize)]) -> Option<&'a [u8]> {
        let name = self.name.as_deref()?;
        if !self.ignore_case {
            return Some(name);
        }
        let spelled = spans.iter().find_map(|&(start, end)| {
            line.get(start..end)
                .filter(|text| text.eq_ignore_ascii_case(name))
        });
        Some(spelled.unwrap_or(name))
    }

    /// The file's score from its tally.
    pub fn file(&self, tally: &FileTally) -> Score {
        let mut score = Score::default();
        if tally.def_lines > 0 {
            score.add("def", DEF_FILE);
            if tally.primary_def_lines > 0 {
                score.add("primary-def", PRIMARY_DEF_FILE);
            }
        } else if tally.weak_def_lines > 0 {
            score.add("weak-def", WEAK_DEF_FILE);
        }
        score.add(
            "words",
            i64::from(tally.covered.count_ones()) * PER_WORD_COVERED,
        );
        let stem = name_key(file_stem(&tally.path));
        if self.name_key.len() >= 3 && !stem.is_empty() {
            if stem == self.name_key {
                score.add("file-name", NAME_EQUALS_FILE);
            } else if contains(&stem, &self.name_key) {
                score.add("file-name", NAME_IN_FILE);
            }
        }
        if tally.exact_word_hits > 0 {
            score.add("exact-word", EXACT_WORD);
        } else if tally.word_hits > 0 {
            score.add("word", WORD);
        }
        let hits = tally.hits.min(1_000_000) as i64;
        score.add("density", DENSITY_MAX * hits / (hits + DENSITY_HALF));
        let path = &tally.path;
        if is_vendored(path) {
            score.add("vendored", PRIOR_VENDORED);
        } else if is_test(path) {
            score.add("test", PRIOR_TEST);
        }
        if tally.def_lines > 0 {
            score.add("test-def", test_def_prior(path));
        }
        if path.ends_with(b".d.ts") {
            score.add("d.ts", PRIOR_DECLARATIONS);
        }
        score
    }
}

/// The prior on a file that defines the name, by its path: tests, test
/// helpers, examples and fixtures define after the source does.
pub fn test_def_prior(path: &[u8]) -> i64 {
    if !is_vendored(path) && (is_test(path) || is_test_helper(path)) {
        PRIOR_TEST_DEF
    } else {
        0
    }
}

/// Orders files best first; ties break on path bytes.
pub fn rank(scorer: &Scorer, tallies: Vec<FileTally>) -> Vec<Ranked> {
    let mut ranked: Vec<Ranked> = tallies
        .into_iter()
        .map(|tally| Ranked {
            score: scorer.file(&tally),
            tally,
        })
        .collect();
    ranked.sort_by(|a, b| {
        b.score
            .total
            .cmp(&a.score.total)
            .then_with(|| a.tally.path.cmp(&b.tally.path))
    });
    ranked
}

/// An indented line that assigns `name` a value that is not a function:
/// `    x = 1`, `\tx: int = 2`, `  const x = f()`, `  local x = {}`. Such
/// lines are definitions to the lexical rules but are usually locals.
pub fn is_indented_assignment(line: &[u8], name: &[u8]) -> bool {
    if !matches!(line.first(), Some(b' ' | b'\t')) {
        return false;
    }
    let trimmed = line.trim_ascii_start();
    let declared = [&b"const "[..], b"let ", b"var ", b"val ", b"local "]
        .iter()
        .any(|k| trimmed.starts_with(k))
        && !trimmed.starts_with(b"local function");
    let Some(at) = trimmed.windows(name.len()).position(|w| w == name) else {
        return false;
    };
    let after = trimmed[at + name.len()..].trim_ascii_start();
    let assigns = declared
        || (at == 0
            && (after.starts_with(b"=") && !after.starts_with(b"==") || after.starts_with(b":")));
    let function_value = [&b"function"[..], b"=>", b"lambda", b"fn(", b"func("]
        .iter()
        .any(|k| contains(after, k));
    assigns && !function_value
}

/// A Java or C# field (`private final Foo NAME;`, `int NAME = 0;`): a
/// definition by the lexical rules, but of data, which ctags does not count
/// and which outnumbers the methods of the same name (in Spring, 70 files
/// hold a field `delegate`, 2 a method).
pub fn is_field(lang: Lang, line: &[u8], name: &[u8]) -> bool {
    if !matches!(lang, Lang::Java | Lang::CSharp) {
        return false;
    }
    let Some(at) = line.windows(name.len()).position(|w| w == name) else {
        return false;
    };
    let after = line[at + name.len()..].trim_ascii_start();
    match after {
        [b';' | b',', ..] => true,
        [b'=', next, ..] => !matches!(next, b'=' | b'>'),
        [b'='] => true,
        _ => false,
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || haystack.windows(needle.len()).any(|w| w == needle)
}

/// [`contains`] with ASCII letters of `haystack` compared lower-cased
/// (`lower_needle` is lower case already), without lower-casing a copy.
fn contains_ignoring_ascii_case(haystack: &[u8], lower_needle: &[u8]) -> bool {
    lower_needle.is_empty()
        || haystack
            .windows(lower_needle.len())
            .any(|w| w.eq_ignore_ascii_case(lower_needle))
}

fn name_key(text: &[u8]) -> Vec<u8> {
    text.iter()
        .filter(|b| b.is_ascii_alphanumeric())
        .map(u8::to_ascii_lowercase)
        .collect()
}

/// The file name without directories and without every extension
/// (`src/use-filters.test.ts` -> `use-filters`).
fn file_stem(path: &[u8]) -> &[u8] {
    let name = match path.iter().rposition(|&b| b == b'/') {
        Some(i) => &path[i + 1..],
        None => path,
    };
    match name.iter().skip(1).position(|&b| b == b'.') {
        Some(i) => &name[..i + 1],
        None => name,
    }
}

fn components(path: &[u8]) -> impl Iterator<Item = &[u8]> {
    path.split(|&b| b == b'/')
}

/// Directories of tests and examples, compared ignoring ASCII case.
const TEST_DIRS: [&[u8]; 11] = [
    b"test",
    b"tests",
    b"__tests__",
    b"spec",
    b"specs",
    b"testing",
    b"testdata",
    b"example",
    b"examples",
    b"benches",
    b"fixtures",
];

/// Directories of vendored and generated code.
const VENDORED_DIRS: [&[u8]; 8] = [
    b"vendor",
    b"vendored",
    b"third_party",
    b"thirdparty",
    b"node_modules",
    b"dist",
    b"generated",
    b"gen",
];

/// Tests and examples.
pub fn is_test(path: &[u8]) -> bool {
    let mut parts = components(path).peekable();
    while let Some(part) = parts.next() {
        if parts.peek().is_none() {
            let ends = |text: &[u8], suffix: &[u8]| {
                text.len() >= suffix.len()
                    && text[text.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
            };
            let starts = |text: &[u8], prefix: &[u8]| {
                text.len() >= prefix.len() && text[..prefix.len()].eq_ignore_ascii_case(prefix)
            };
            return starts(part, b"test_")
                || around_dots(part, |before, after| {
                    ends(before, b"_test")
                        || starts(after, b".test.")
                        || starts(after, b".spec.")
                        || ends(before, b"_spec")
                        || after.eq_ignore_ascii_case(b".bats")
                        || (after == b".scala"
                            && [&b"Spec"[..], b"Suite"].iter().any(|suffix| {
                                before.len() > suffix.len() && before.ends_with(suffix)
                            }))
                });
        }
        if TEST_DIRS.iter().any(|dir| part.eq_ignore_ascii_case(dir)) {
            return true;
        }
    }
    false
}

/// Code that serves tests without being a test by [`is_test`]'s reading:
/// under a directory named for them (`testutil`, `teststorage`,
/// `integration_tests`, `e2e-test`, `mocks`, `fakes`), or named like one
/// (`FooTest.java`, `FooTests.cs`, `conftest.py`, `testutil.go`,
/// `test-utils.ts`).
pub fn is_test_helper(path: &[u8]) -> bool {
    let lower = |part: &[u8]| part.to_ascii_lowercase();
    let mut parts: Vec<&[u8]> = components(path).collect();
    let name = parts.pop().unwrap_or_default();
    let helper_dir = |part: &[u8]| {
        let part = lower(part);
        part.starts_with(b"test")
            || [&b"_test"[..], b"_tests", b"-test", b"-tests"]
                .iter()
                .any(|suffix| part.ends_with(suffix))
            || [&b"mock"[..], b"mocks", b"fakes", b"stubs"].contains(&&part[..])
    };
    if parts.iter().any(|part| helper_dir(part)) {
        return true;
    }
    let stem = match name.iter().position(|&b| b == b'.') {
        Some(dot) => &name[..dot],
        None => name,
    };
    let lower_stem = lower(stem);
    stem.ends_with(b"Test")
        || stem.ends_with(b"Tests")
        || [
            &b"conftest"[..],
            b"testutil",
            b"testutils",
            b"testing",
            b"test_utils",
            b"test-utils",
            b"test_helpers",
            b"test-helpers",
            b"testhelpers",
        ]
        .contains(&&lower_stem[..])
}

/// Vendored, generated and minified files.
pub fn is_vendored(path: &[u8]) -> bool {
    let name = file_stem(path);
    components(path).any(|part| VENDORED_DIRS.contains(&part))
        || name.ends_with(b"_pb2")
        || around_dots(path, |before, after| {
            after.starts_with(b".min.")
                || (before.ends_with(b"-min") && after.starts_with(b".js"))
                || after.starts_with(b".pb.go")
                || after.starts_with(b".generated.")
                || after == b".g.dart"
                || after == b".freezed.dart"
                || after == b".pb.swift"
                || after == b".grpc.swift"
        })
}

/// True when `test` holds at one of the `.` of `bytes`, given what comes
/// before it and what starts there. Every suffix the priors look for has
/// a dot, and paths have few: this reads each byte once, where looking
/// for each suffix anywhere would compare it at every offset.
fn around_dots(bytes: &[u8], test: impl Fn(&[u8], &[u8]) -> bool) -> bool {
    memchr::memchr_iter(b'.', bytes).any(|at| test(&bytes[..at], &bytes[at..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::query::Kind;

    fn tally(path: &str, hits: u64, defs: u64) -> FileTally {
        FileTally {
            path: path.as_bytes().to_vec(),
            hits,
            matches: hits,
            def_lines: defs,
            ..FileTally::default()
        }
    }

    fn scorer(text: &str) -> Scorer {
        Scorer::new(&Query::plan(text, Kind::Auto, false, false))
    }

    #[test]
    fn a_defining_file_outranks_any_number_of_usages() {
        let s = scorer("useFilters");
        let ranked = rank(
            &s,
            vec![
                tally("src/a.ts", 900, 0),
                tally("src/tests/z.ts", 1, 1),
                tally("src/use-filters.ts", 50, 0),
            ],
        );
        let order: Vec<_> = ranked.iter().map(|r| r.tally.path.clone()).collect();
        assert_eq!(order[0], b"src/tests/z.ts");
        assert_eq!(order[1], b"src/use-filters.ts", "file name beats density");
    }

    #[test]
    fn ties_break_on_path() {
        let s = scorer("abc");
        let ranked = rank(&s, vec![tally("b", 1, 0), tally("a", 1, 0)]);
        assert_eq!(ranked[0].tally.path, b"a");
    }

    #[test]
    fn priors_lower_but_keep_files() {
        let s = scorer("thing");
        let ranked = rank(
            &s,
            vec![
                tally("node_modules/x/lib.js", 5, 0),
                tally("tests/test_x.py", 5, 0),
                tally("types/index.d.ts", 5, 0),
                tally("src/x.py", 5, 0),
            ],
        );
        let order: Vec<_> = ranked
            .iter()
            .map(|r| String::from_utf8_lossy(&r.tally.path).into_owned())
            .collect();
        assert_eq!(
            order,
            [
                "src/x.py",
                "tests/test_x.py",
                "types/index.d.ts",
                "node_modules/x/lib.js"
            ]
        );
    }

    #[test]
    fn density_saturates() {
        let s = scorer("abc");
        let few = s.file(&tally("a", 10, 0)).total;
        let many = s.file(&tally("a", 100_000, 0)).total;
        assert!(many > few && many - few < DENSITY_MAX);
    }

    #[test]
    fn line_signals_see_whole_words_and_case() {
        let s = scorer("useState");
        let line = b"const [a, setA] = useState(0)";
        let sig = s.line(Some(Lang::TypeScript), line, &[(18, 26)]);
        assert!(sig.word && sig.exact && !sig.def);
        let part = s.line(None, b"xuseStatey", &[(1, 9)]);
        assert!(!part.word);
    }

    #[test]
    fn query_words_are_found_in_a_span_whatever_its_case() {
        assert!(contains_ignoring_ascii_case(b"parseConfigFile", b"config"));
        assert!(contains_ignoring_ascii_case(
            b"PARSE_CONFIG",
            b"parse_config"
        ));
        assert!(!contains_ignoring_ascii_case(b"parse", b"parser"));
        assert!(!contains_ignoring_ascii_case(b"conf_ig", b"config"));
        assert!(contains_ignoring_ascii_case(b"", b""));
        // Only ASCII letters fold, as `to_ascii_lowercase` folded them.
        assert!(!contains_ignoring_ascii_case(
            "ÉTÉ".as_bytes(),
            "été".as_bytes()
        ));
    }

    #[test]
    fn java_and_csharp_fields_are_weak_definitions() {
        let s = scorer("delegate");
        let java = |line: &str| s.line(Some(Lang::Java), line.as_bytes(), &[]);
        let field = java("\tprivate final DataBuffer delegate;");
        assert!(field.weak_def && !field.def);
        assert!(java("\tprotected int delegate = 0;").weak_def);
        let method = java("\tprivate HttpHeaders delegate() {");
        assert!(method.def && !method.weak_def);
        assert!(!is_field(Lang::Python, b"    delegate = 1", b"delegate"));
        assert!(!is_field(
            Lang::CSharp,
            b"  Foo delegate => x;",
            b"delegate"
        ));
    }

    #[test]
    fn indented_assignments_are_weak_definitions() {
        let s = scorer("style");
        let weak = |line: &str| s.line(Some(Lang::Python), line.as_bytes(), &[]);
        assert!(weak("        style: Style = cls.__new__(Style)").weak_def);
        assert!(weak("    style = None").weak_def);
        assert!(weak("def style(").def);
        assert!(
            weak("style = Style()").def,
            "module level stays a definition"
        );
        assert!(!weak("    style = lambda x: x").weak_def);
        let js = |line: &str| is_indented_assignment(line.as_bytes(), b"style");
        assert!(!js("  const style = useMemo(() => 1)"), "a function value");
        assert!(js("  let style = {}"));
        assert!(!js("  const style = (a) => a"));
    }

    #[test]
    fn test_and_vendored_paths() {
        assert!(is_test(b"pkg/foo_test.go"));
        assert!(is_test(b"src/__tests__/a.tsx"));
        assert!(is_test(b"Lib/test/test_os.py"));
        assert!(!is_test(b"src/contest.py"));
        // Each ecosystem's spelling of a test: Elixir, Dart, bats, ScalaTest
        // and hspec suites, Swift packages' `Tests/`.
        for test in [
            "test/shop/cart_test.exs",
            "lib/src/client_test.dart",
            "test/install.bats",
            "core/src/main/scala/cats/FooSuite.scala",
            "modules/core/CodecSpec.scala",
            "Tests/NIOCoreTests/ByteBufferTest.swift",
        ] {
            assert!(is_test(test.as_bytes()), "{test}");
        }
        assert!(!is_test(b"core/src/main/scala/cats/Spec.scala"));
        assert!(!is_test(b"src/Types/Spec.hs"));
        for generated in [
            "lib/src/model.g.dart",
            "lib/x.freezed.dart",
            "Sources/X/api.pb.swift",
        ] {
            assert!(is_vendored(generated.as_bytes()), "{generated}");
        }
        for helper in [
            "util/teststorage/appender.go",
            "internal/testutil/db.go",
            "crates/integration_tests/lib.rs",
            "src/test/java/org/jsoup/nodes/ElementTest.java",
            "pkg/mocks/store.go",
            "conftest.py",
            "src/test-utils.ts",
        ] {
            assert!(is_test_helper(helper.as_bytes()), "{helper}");
        }
        for source in [
            "src/contest.py",
            "storage/interface.go",
            "src/Latest.java",
            "lib/attestation/x.rs",
        ] {
            assert!(!is_test_helper(source.as_bytes()), "{source}");
        }
        assert!(is_vendored(b"static/app.min.js"));
        assert!(is_vendored(b"third_party/x.c"));
        assert!(!is_vendored(b"src/general.rs"));
    }

    /// The priors as they read before they looked only around dots:
    /// every suffix anywhere in the lower-cased name (tests) or the path
    /// (vendored).
    fn is_test_reference(path: &[u8]) -> bool {
        let parts: Vec<Vec<u8>> = path
            .split(|&b| b == b'/')
            .map(<[u8]>::to_ascii_lowercase)
            .collect();
        let (name, dirs_of_path) = parts.split_last().unwrap();
        dirs_of_path
            .iter()
            .any(|part| TEST_DIRS.contains(&&part[..]))
            || name.starts_with(b"test_")
            || [&b"_test."[..], b".test.", b".spec.", b"_spec."]
                .iter()
                .any(|suffix| contains(name, suffix))
            || name.ends_with(b".bats")
    }

    fn is_vendored_reference(path: &[u8]) -> bool {
        path.split(|&b| b == b'/')
            .any(|part| VENDORED_DIRS.contains(&part))
            || file_stem(path).ends_with(b"_pb2")
            || [&b".min."[..], b"-min.js", b".pb.go", b".generated."]
                .iter()
                .any(|suffix| contains(path, suffix))
            || [
                &b".g.dart"[..],
                b".freezed.dart",
                b".pb.swift",
                b".grpc.swift",
            ]
            .iter()
            .any(|suffix| path.ends_with(suffix))
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 2048,
            failure_persistence: None,
            ..Default::default()
        })]

        /// Paths built from the pieces the priors look for, in any case
        /// and order: the same answers as the plain reading.
        #[test]
        fn priors_agree_with_their_plain_reading(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "/", ".", "-", "_", "a", "Test", "test", "_TEST.", "spec", "SPEC", ".min",
                    "min", ".js", "pb", ".go", "generated", "gen", "vendor", "dist", "_pb2",
                    "tests", "Examples", "fixtures", "x.test.ts", "__tests__", ".spec.", "_Spec.",
                    "-min.js", ".pb.go", ".generated.", "test_",
                ]),
                0..12,
            )
        ) {
            let path = pieces.concat();
            proptest::prop_assert_eq!(is_test(path.as_bytes()), is_test_reference(path.as_bytes()), "{}", path);
            proptest::prop_assert_eq!(
                is_vendored(path.as_bytes()),
                is_vendored_reference(path.as_bytes()),
                "{}",
                path
            );
        }
    }
}
