//! Property tests over every reader of outside bytes: rg's plain records
//! and `--json` events, the query planner, the brace writer, `--range` and
//! `--page`, the session memory file and the definitions cache entry.
//! (The `scout call` request parser's properties sit beside it, in
//! `src/request/mod.rs`.)
//!
//! Each property shows that arbitrary and structure-aware inputs are
//! either accepted or rejected with a typed error, never a panic, and that
//! what is accepted means what it says. `cargo test` runs 64 cases per
//! property; `PROPTEST_CASES=N` runs N (the long campaign in
//! bench/README.md).

use std::collections::BTreeSet;

use proptest::prelude::*;
use proptest::strategy::ValueTree;

use crate::defs::cache::{DecodeError, Entry};
use crate::defs::{Def, DefKind};
use crate::page::query::{Kind, Query, MIN_ANCHOR_CHARS};
use crate::rg::{parse_event, Record, RecordReader, RgEvent};
use crate::search::query::longest_literal_run;
use crate::session::{Session, Shown, Stamp};
use crate::views::read::LineRange;

use crate::testing::proptest_config;

// ------------------------------------------------------------ rg records

/// A record, owned: (0 line / 1 binary stopped / 2 binary matches, path,
/// line number, text).
type Owned = (u8, Vec<u8>, u64, Vec<u8>);

/// Feeds `output` line by line; returns the records and the unparsed
/// count.
fn read_records(output: &[u8]) -> (Vec<Owned>, u64) {
    let mut reader = RecordReader::default();
    let mut seen = Vec::new();
    for line in output.split_inclusive(|&b| b == b'\n') {
        if let Some(record) = reader.feed(line) {
            seen.push(match record {
                Record::Line { path, number, text } => (0, path.to_vec(), number, text.to_vec()),
                Record::BinaryStopped { path } => (1, path.to_vec(), 0, Vec::new()),
                Record::BinaryMatches { path } => (2, path.to_vec(), 0, Vec::new()),
            });
        }
    }
    (seen, reader.finish())
}

/// A path as rg prints it: no NUL; may hold newlines and any other byte.
fn rg_path() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            8 => prop::num::u8::ANY.prop_filter("no NUL", |&b| b != 0),
            1 => Just(b'\n'),
            1 => Just(b':'),
        ],
        1..40,
    )
    // A piece of a path that ends in `)` after digits could read as rg's
    // binary notice; rg's own notices are tested apart.
    .prop_filter("no notice look-alike", |p| !p.contains(&b')'))
}

/// A matching line's text: anything but a newline, then its terminator.
fn rg_text() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop::num::u8::ANY.prop_filter("no newline", |&b| b != b'\n'),
        0..80,
    )
    .prop_map(|mut t| {
        t.push(b'\n');
        t
    })
}

proptest! {
    #![proptest_config(proptest_config(64))]

    /// Arbitrary bytes: no panic; every record is a slice of the input,
    /// and no more records or unparsed lines come out than lines went in.
    #[test]
    fn records_of_arbitrary_bytes_are_slices_of_the_input(
        output in prop::collection::vec(
            prop_oneof![4 => prop::num::u8::ANY, 1 => Just(b'\n'), 1 => Just(0u8), 1 => Just(b':')],
            0..2000,
        )
    ) {
        let lines = output.split_inclusive(|&b| b == b'\n').count() as u64;
        let (seen, unparsed) = read_records(&output);
        prop_assert!(seen.len() as u64 + unparsed <= lines.max(1));
        for (_, path, _, text) in &seen {
            prop_assert!(output.windows(path.len().max(1)).any(|w| path.is_empty() || w == &path[..]));
            prop_assert!(text.is_empty() || output.windows(text.len()).any(|w| w == &text[..]));
        }
    }

    /// Records written the way rg writes them come back exactly, paths
    /// with newlines included.
    #[test]
    fn records_round_trip(records in prop::collection::vec((rg_path(), 1u64..1_000_000, rg_text()), 0..30)) {
        let mut output = Vec::new();
        for (path, number, text) in &records {
            output.extend_from_slice(path);
            output.push(0);
            output.extend_from_slice(number.to_string().as_bytes());
            output.push(b':');
            output.extend_from_slice(text);
        }
        let (seen, unparsed) = read_records(&output);
        let expected: Vec<_> = records.iter().map(|(p, n, t)| (0u8, p.clone(), *n, t.clone())).collect();
        prop_assert_eq!(seen, expected);
        prop_assert_eq!(unparsed, 0);
    }

    /// A stream cut anywhere (rg killed mid-record) yields a prefix of the
    /// records, the last possibly shortened, and never a record that
    /// was not written.
    #[test]
    fn a_truncated_stream_yields_a_prefix(
        records in prop::collection::vec((rg_path(), 1u64..1000, rg_text()), 1..10),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut output = Vec::new();
        for (path, number, text) in &records {
            output.extend_from_slice(path);
            output.push(0);
            output.extend_from_slice(number.to_string().as_bytes());
            output.push(b':');
            output.extend_from_slice(text);
        }
        let cut = cut.index(output.len() + 1);
        let (seen, _) = read_records(&output[..cut]);
        prop_assert!(seen.len() <= records.len());
        for (i, (kind, path, number, text)) in seen.iter().enumerate() {
            let (p, n, t) = &records[i];
            prop_assert_eq!(*kind, 0);
            // The last record may be cut inside its number or text.
            if i + 1 < seen.len() {
                prop_assert_eq!((path, number, text), (p, n, t));
            } else {
                prop_assert_eq!(path, p);
                prop_assert!(t.starts_with(text));
            }
        }
    }

    /// Endless NUL-less lines (garbage, or a path longer than any) are
    /// dropped as unparsed, not kept: memory stays bounded.
    #[test]
    fn records_without_a_nul_are_dropped_not_kept(line_len in 1usize..5000, lines in 1usize..200) {
        let mut reader = RecordReader::default();
        let mut line = vec![b'x'; line_len];
        line.push(b'\n');
        for _ in 0..lines {
            prop_assert!(reader.feed(&line).is_none());
        }
        prop_assert_eq!(reader.finish(), lines as u64);
    }
}

// ------------------------------------------------------------ rg --json

/// rg's "arbitrary data" as JSON: `{"text":...}` for UTF-8, else base64.
fn data_json(bytes: &[u8], force_bytes: bool) -> serde_json::Value {
    match std::str::from_utf8(bytes) {
        Ok(text) if !force_bytes => serde_json::json!({ "text": text }),
        _ => {
            use base64::Engine as _;
            serde_json::json!({ "bytes": base64::engine::general_purpose::STANDARD.encode(bytes) })
        }
    }
}

fn match_event(
    path: &[u8],
    line: &[u8],
    number: u64,
    spans: &[(usize, usize)],
    b64: bool,
) -> Vec<u8> {
    let submatches: Vec<_> = spans
        .iter()
        .map(|&(s, e)| {
            let m = line.get(s..e).unwrap_or(b"");
            serde_json::json!({"match": data_json(m, false), "start": s, "end": e})
        })
        .collect();
    // serde_json keeps insertion order only with preserve_order; write
    // the object by hand in rg's field order, the fast path's shape.
    format!(
        r#"{{"type":"match","data":{{"path":{},"lines":{},"line_number":{},"absolute_offset":0,"submatches":{}}}}}"#,
        data_json(path, b64),
        data_json(line, b64),
        number,
        serde_json::Value::Array(submatches)
    )
    .into_bytes()
}

proptest! {
    #![proptest_config(proptest_config(64))]

    /// Arbitrary bytes, and arbitrary JSON-ish text: parsed or rejected
    /// with serde's error, never a panic.
    #[test]
    fn events_of_arbitrary_bytes_parse_or_fail(line in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse_event(&line);
    }

    #[test]
    fn events_of_json_shaped_garbage_parse_or_fail(
        kind in prop::sample::select(vec!["begin", "match", "context", "end", "summary", "other"]),
        data in r#"\{("[a-z_]{1,12}":(-?[0-9]{1,20}|"[^"\\]{0,8}"|\{"(text|bytes)":"[^"]{0,12}"\}|null|\[\]),?){0,8}\}"#,
    ) {
        let line = format!(r#"{{"type":"{kind}","data":{data}}}"#);
        let _ = parse_event(line.as_bytes());
    }

    /// A match event built from any path, line and spans (UTF-8 or not,
    /// base64 or text) gives back exactly those bytes and numbers.
    #[test]
    fn match_events_round_trip(
        path in prop::collection::vec(any::<u8>(), 1..30),
        line in prop::collection::vec(any::<u8>(), 0..100),
        number in 1u64..u64::MAX / 2,
        b64 in any::<bool>(),
        spans in prop::collection::vec((0usize..120, 0usize..120), 0..4),
    ) {
        let event = match_event(&path, &line, number, &spans, b64);
        match parse_event(&event) {
            Ok(RgEvent::Match(m)) => {
                prop_assert_eq!(&*m.path.to_bytes(), &path[..]);
                prop_assert_eq!(&*m.lines.to_bytes(), &line[..]);
                prop_assert_eq!(m.line_number, Some(number));
                let got: Vec<_> = m.submatches.iter().map(|s| (s.start, s.end)).collect();
                prop_assert_eq!(got, spans);
            }
            other => prop_assert!(false, "{:?} for {}", other.map(|_| ()), String::from_utf8_lossy(&event)),
        }
    }

    /// A real event cut at any byte, or with one byte changed: parsed or
    /// rejected, never a panic (rg killed mid-line, a flipped bit).
    #[test]
    fn mutated_match_events_parse_or_fail(
        path in "[a-z/]{1,10}",
        line in ".{0,40}",
        cut in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let event = match_event(path.as_bytes(), line.as_bytes(), 3, &[(0, 1)], false);
        let _ = parse_event(&event[..cut.index(event.len() + 1)]);
        let mut changed = event.clone();
        let i = at.index(changed.len());
        changed[i] = byte;
        let _ = parse_event(&changed);
    }
}

// -------------------------------------------------------- query planner

/// Regex pieces, including escapes that are not literals (`\x41`, `\pL`).
fn regex_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[a-zA-Z0-9_]{1,4}",
        1 => Just(".".to_string()),
        1 => Just("\\w".to_string()),
        1 => Just("\\d".to_string()),
        1 => Just("\\s".to_string()),
        1 => Just("\\.".to_string()),
        1 => Just("\\x41".to_string()),
        1 => Just("\\x{42}".to_string()),
        1 => Just("\\pL".to_string()),
        1 => Just("\\p{Lu}".to_string()),
        1 => Just("\\u0043".to_string()),
        1 => Just("[a-c]".to_string()),
        1 => Just("[^x]".to_string()),
        1 => Just("(?i)".to_string()),
        1 => "[a-z]{1,3}[*+?]",
        1 => "[a-z]\\{[0-3](,[0-3])?\\}",
        1 => "\\([a-z]{1,4}\\|[a-z]{1,4}\\)",
        1 => "\\([a-z]{1,4}\\)[?*+]?",
        1 => "\\(\\?:[a-z]{1,4}\\|x\\)",
    ]
}

fn regex_pattern() -> impl Strategy<Value = String> {
    prop::collection::vec(regex_piece(), 1..6).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(proptest_config(64))]

    /// Any text, any kind, any flags: a plan, never a panic; a literal
    /// kind anchors on the text itself; -w is kept.
    #[test]
    fn any_pattern_plans(
        text in any::<String>(),
        kind in prop::sample::select(vec![Kind::Auto, Kind::Literal, Kind::Regex, Kind::Symbol]),
        ignore_case in any::<bool>(),
        word in any::<bool>(),
    ) {
        let query = Query::plan(&text, kind, ignore_case, word);
        prop_assert!(query.kind != Kind::Auto);
        prop_assert_eq!(&query.text, &text);
        prop_assert_eq!(query.word, word || kind == Kind::Symbol);
        if matches!(kind, Kind::Literal | Kind::Symbol) {
            prop_assert_eq!(&query.anchor, &text);
        }
        let _ = query.looks_literal();
        let _ = query.is_passthrough();
    }

    /// The anchor of a regex is in every string the regex matches (up to
    /// case folding): a pattern is ranked only on a literal every
    /// match holds, else it passes through to rg (I1).
    #[test]
    fn a_regex_anchor_is_in_every_match(pattern in regex_pattern(), seed in any::<u64>()) {
        let Ok(regex) = regex::Regex::new(&pattern) else { return Ok(()); };
        let anchor = longest_literal_run(&pattern);
        let Ok(strings) = proptest::string::string_regex(&pattern) else { return Ok(()); };
        let mut runner = proptest::test_runner::TestRunner::new_with_rng(
            ProptestConfig::default(),
            proptest::test_runner::TestRng::from_seed(
                proptest::test_runner::RngAlgorithm::ChaCha,
                &{ let mut s = [0u8; 32]; s[..8].copy_from_slice(&seed.to_le_bytes()); s },
            ),
        );
        for _ in 0..8 {
            let text = strings.new_tree(&mut runner).unwrap().current();
            let Some(found) = regex.find(&text) else { continue };
            // Case-folded as rg folds it (`(?i)S` matches "ſ").
            let folded = regex::Regex::new(&format!("(?i){}", regex::escape(&anchor))).unwrap();
            let found = found.as_str();
            prop_assert!(
                folded.is_match(found),
                "pattern {:?}: anchor {:?} is not in the match {:?}", pattern, anchor, found
            );
        }
        let query = Query::plan(&pattern, Kind::Regex, false, false);
        prop_assert_eq!(query.is_passthrough(), anchor.chars().count() < MIN_ANCHOR_CHARS);
        // A branch with no anchor makes the whole pattern pass through.
        let either = format!("{pattern}|zz");
        if regex::Regex::new(&either).is_ok() {
            prop_assert!(Query::plan(&either, Kind::Regex, false, false).is_passthrough(), "{:?}", either);
        }
    }
}

// --------------------------------------------------------------- braces

/// Bash brace expansion of the expressions braces.rs writes: no nesting
/// inside one group, groups side by side.
fn expand(text: &[u8]) -> Vec<Vec<u8>> {
    let Some(open) = text.iter().position(|&b| b == b'{') else {
        return vec![text.to_vec()];
    };
    let close = open
        + text[open..]
            .iter()
            .position(|&b| b == b'}')
            .expect("a closing brace");
    let head = &text[..open];
    let rest = expand(&text[close + 1..]);
    let mut out = Vec::new();
    for alternative in text[open + 1..close].split(|&b| b == b',') {
        for tail in &rest {
            let mut path = head.to_vec();
            path.extend_from_slice(alternative);
            path.extend_from_slice(tail);
            out.push(path);
        }
    }
    out
}

fn path_set() -> impl Strategy<Value = BTreeSet<Vec<u8>>> {
    let part = prop_oneof![
        "[a-c]{1,2}",
        "[a-c]{1,2}\\.(rs|go)",
        Just("x.rs".to_string()),
        Just(".".to_string()),
    ];
    let path = prop::collection::vec(part, 1..5).prop_map(|parts| {
        let mut p = parts.join("/");
        if p.starts_with('/') {
            p.insert(0, 'r');
        }
        p.into_bytes()
    });
    prop::collection::btree_set(path, 0..40)
}

proptest! {
    #![proptest_config(proptest_config(64))]

    /// Expanding the expressions gives back exactly the input paths, each
    /// once, and each expression counts the paths it stands for.
    #[test]
    fn braces_expand_to_exactly_the_input(paths in path_set(), dot in any::<bool>()) {
        let paths: BTreeSet<Vec<u8>> = paths
            .into_iter()
            .map(|p| if dot { [b"./".as_slice(), &p].concat() } else { p })
            .collect();
        let input: Vec<&[u8]> = paths.iter().map(|p| p.as_slice()).collect();
        let expressions = crate::render::braces::compress(&input).expect("no syntax bytes");
        let mut expanded = Vec::new();
        for e in &expressions {
            let these = expand(&e.text);
            prop_assert_eq!(these.len(), e.paths, "{}", String::from_utf8_lossy(&e.text));
            expanded.extend(these);
        }
        let got: BTreeSet<Vec<u8>> = expanded.iter().cloned().collect();
        prop_assert_eq!(got.len(), expanded.len(), "a path is named twice");
        prop_assert_eq!(got, paths);
    }

    /// Any bytes at all: `None` for syntax bytes, else expressions; no
    /// panic.
    #[test]
    fn braces_of_arbitrary_paths(paths in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..12), 0..20)) {
        let input: Vec<&[u8]> = paths.iter().map(|p| p.as_slice()).collect();
        let _ = crate::render::braces::compress(&input);
    }
}

// ------------------------------------------------------ --range, --page

proptest! {
    #![proptest_config(proptest_config(64))]

    /// Any text: a range with 1 <= start <= end, or an error; within a
    /// file of any length, the lines are inside it.
    #[test]
    fn ranges_parse_or_fail(
        text in prop_oneof![any::<String>(), "[ 0-9:-]{0,12}", "[0-9]{1,12}[:-][0-9]{0,12}"],
        count in 0u32..100_000,
    ) {
        if let Ok(range) = LineRange::parse(&text) {
            prop_assert!(range.start.is_none_or(|s| s >= 1));
            if let (Some(a), Some(b)) = (range.start, range.end) {
                prop_assert!(a <= b);
            }
            if let Ok((start, end)) = range.within(count, b"f") {
                prop_assert!(1 <= start && start <= end && end <= count);
            }
        }
    }

    /// A well-formed range reads back as written.
    #[test]
    fn ranges_round_trip(a in 1u32.., len in 0u32..1000, sep in prop::sample::select(vec![":", "-", " : "])) {
        let b = a.saturating_add(len);
        let range = LineRange::parse(&format!("{a}{sep}{b}")).unwrap();
        prop_assert_eq!((range.start, range.end), (Some(a), Some(b)));
    }

    /// Any `--page` value: clap reads it as a number or rejects it; 0 is
    /// refused by the settings, with a message.
    #[test]
    fn pages_parse_or_fail(page in prop_oneof![any::<String>(), "-?[0-9]{1,22}"]) {
        use clap::Parser;
        let argv = ["scout", "search", "--page", page.as_str(), "needle"];
        if let Ok(cli) = crate::cli::Cli::try_parse_from(argv) {
            let Some(crate::cli::Command::Search(args)) = cli.command else {
                return Err(TestCaseError::fail("not a search"));
            };
            let page = args.output.page;
            let argv: Vec<std::ffi::OsString> = argv.iter().map(Into::into).collect();
            let resolved = crate::search::settings::SearchSettings::resolve(args, &argv);
            prop_assert_eq!(resolved.is_err(), page == 0);
        }
    }
}

// ------------------------------------------------- session memory file

fn session_in(dir: &std::path::Path) -> Session {
    Session {
        id: "fuzz".to_string(),
        var: "SCOUT_SESSION_ID",
        dir: dir.join("seen"),
    }
}

/// A real memory file's bytes.
fn real_memory(dir: &std::path::Path) -> Vec<u8> {
    let session = session_in(dir);
    let shown = [Shown {
        path: "/src/a.rs".to_string(),
        stamp: Stamp {
            size: 120,
            mtime_ns: 1_700_000_000_000_000_000,
            ctime_ns: 1_700_000_000_000_000_001,
            ino: 12,
            dev: 2049,
        },
        lines: vec![3, 4, 9],
    }];
    assert_eq!(session.record(&shown), None);
    std::fs::read(session.file()).unwrap()
}

proptest! {
    #![proptest_config(proptest_config(64))]

    /// Arbitrary bytes, or a real file cut short or with a byte changed,
    /// in the memory file: it loads (empty, with one warning, when it is
    /// not a memory) and a later record still works; never a panic.
    #[test]
    fn memory_files_of_any_bytes_load(
        garbage in prop::collection::vec(any::<u8>(), 0..300),
        cut in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        which in 0u8..3,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let session = session_in(dir.path());
        let real = real_memory(dir.path());
        let bytes = match which {
            0 => garbage,
            1 => real[..cut.index(real.len())].to_vec(),
            _ => { let mut b = real.clone(); let i = at.index(b.len()); b[i] = byte; b }
        };
        std::fs::write(session.file(), &bytes).unwrap();
        let loaded = session.load();
        if loaded.warning.is_some() {
            prop_assert!(loaded.memory.files.is_empty());
        }
        let shown = [Shown {
            path: "/src/b.rs".to_string(),
            stamp: Stamp { size: 1, mtime_ns: 2, ..Stamp::default() },
            lines: vec![1],
        }];
        let warning = session.record(&shown);
        let after = session.load();
        if loaded.writable {
            prop_assert_eq!(warning, None);
            prop_assert!(after.warning.is_none());
            let stamp = Stamp { size: 1, mtime_ns: 2, ..Stamp::default() };
            prop_assert!(after.memory.seen("/src/b.rs", stamp).is_some());
        } else {
            // A foreign or future file is left as it is.
            prop_assert_eq!(std::fs::read(session.file()).unwrap(), bytes);
        }
    }

    /// Whatever lines are recorded, in any number of searches, the memory
    /// holds exactly their union.
    #[test]
    fn memory_keeps_the_union_of_recorded_lines(
        searches in prop::collection::vec(prop::collection::vec(1u64..200, 1..20), 1..6)
    ) {
        let dir = tempfile::tempdir().unwrap();
        let session = session_in(dir.path());
        let stamp = Stamp { size: 10, mtime_ns: -5, ..Stamp::default() };
        for lines in &searches {
            let shown = [Shown { path: "/a".to_string(), stamp, lines: lines.clone() }];
            prop_assert_eq!(session.record(&shown), None);
        }
        let all: BTreeSet<u64> = searches.iter().flatten().copied().collect();
        let memory = session.load().memory;
        let ranges = memory.seen("/a", stamp).unwrap();
        for line in 0..=201 {
            prop_assert_eq!(crate::session::contains(ranges, line), all.contains(&line), "line {}", line);
        }
    }
}

// ------------------------------------------------ definitions cache file

fn def_kind() -> impl Strategy<Value = DefKind> {
    prop::sample::select(DefKind::ALL.to_vec())
}

fn def() -> impl Strategy<Value = Def> {
    (
        def_kind(),
        ".{0,20}",
        ".{0,10}",
        1u32..10_000,
        0u32..500,
        0u32..500,
    )
        .prop_map(|(kind, name, short, start, len, name_at)| Def {
            kind,
            name,
            short,
            start_line: start,
            end_line: start + len,
            name_line: start + name_at.min(len),
        })
}

fn entry() -> impl Strategy<Value = Entry> {
    (
        any::<u32>(),
        any::<u32>(),
        "[a-z+#]{0,12}",
        prop::collection::vec(any::<u8>(), 0..60),
        (
            any::<u64>(),
            any::<i64>(),
            any::<i64>(),
            any::<u64>(),
            any::<u64>(),
        ),
        prop::collection::vec(def(), 0..12),
    )
        .prop_map(
            |(format, rules, lang, path, (size, mtime_ns, ctime_ns, ino, dev), defs)| Entry {
                format,
                rules,
                lang,
                path,
                stamp: Stamp {
                    size,
                    mtime_ns,
                    ctime_ns,
                    ino,
                    dev,
                },
                defs,
            },
        )
}

proptest! {
    #![proptest_config(proptest_config(64))]

    /// Any entry reads back as written.
    #[test]
    fn cache_entries_round_trip(entry in entry()) {
        prop_assert_eq!(Entry::decode(&entry.encode()), Ok(entry));
    }

    /// Arbitrary bytes, with or without the magic: an entry or a typed
    /// error, never a panic.
    #[test]
    fn cache_entries_of_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400), magic in any::<bool>()) {
        let bytes = if magic { [b"scout-defs\n".as_slice(), &bytes].concat() } else { bytes };
        let _: Result<Entry, DecodeError> = Entry::decode(&bytes);
    }

    /// A real entry cut short is `Truncated` (or `Magic` inside the magic);
    /// with a byte changed, inserted or removed it is a typed error or an
    /// entry that encodes back to the same bytes, and every definition it
    /// holds has 1 <= start_line <= name_line <= end_line (what the page
    /// relies on).
    #[test]
    fn mutated_cache_entries_fail_typed(
        entry in entry(),
        cut in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        how in 0u8..3,
    ) {
        let bytes = entry.encode();
        let cut = cut.index(bytes.len());
        let err = Entry::decode(&bytes[..cut]).unwrap_err();
        prop_assert!(matches!(err, DecodeError::Truncated | DecodeError::Magic), "{:?}", err);
        let mut changed = bytes.clone();
        let i = at.index(changed.len());
        match how {
            0 => changed[i] = byte,
            1 => changed.insert(i, byte),
            _ => { changed.remove(i); }
        }
        if let Ok(decoded) = Entry::decode(&changed) {
            prop_assert_eq!(decoded.encode(), changed);
            for def in &decoded.defs {
                prop_assert!(
                    1 <= def.start_line && def.start_line <= def.name_line && def.name_line <= def.end_line,
                    "{:?}", def
                );
            }
        }
    }
}
