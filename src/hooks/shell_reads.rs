//! Which lines of which files a shell command shows the agent: `cat`,
//! `head`, `tail`, `sed -n`, `nl` (also behind `rtk`), alone or at the
//! head of a simple pipeline through `head`, `tail`, `sed -n`, `nl`,
//! `cat` or a pager.
//!
//! A pipeline into anything else (`grep`, `wc`, `awk`, ...) shows an
//! unknown part of what was read, so it records nothing; so does output
//! sent to a file, a flag this module does not know, or a file name the
//! shell would expand. `cd DIR` earlier on the line moves the directory
//! later relative paths resolve against. Parsing the line is
//! [`super::shell_line`]'s; the files themselves are only looked at by
//! [`ShellRead::resolve`], to count their lines.

use std::path::{Path, PathBuf};

use super::shell_line::{self, Stage, Word};

/// A selection of lines, before the file's length is known. Line
/// numbers are 1-based; [`END`] stands for the last line (`$` in sed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lines {
    All,
    /// The first N lines (`head -n N`).
    First(u64),
    /// The last N lines (`tail -n N`).
    Last(u64),
    /// From line N to the end (`tail -n +N`).
    From(u64),
    /// Inclusive ranges, in the order printed (`sed -n '1,5p;9p'`).
    Ranges(Vec<(u64, u64)>),
}

/// sed's `$`: the last line.
pub const END: u64 = u64::MAX;

impl Lines {
    /// The selected positions in a stream of `len` lines: inclusive,
    /// 1-based ranges in the order printed.
    pub fn positions(&self, len: u64) -> Vec<(u64, u64)> {
        let range = |a: u64, b: u64| (a <= b && a <= len && b >= 1).then(|| (a.max(1), b.min(len)));
        match self {
            Lines::All => range(1, len).into_iter().collect(),
            Lines::First(n) => range(1, (*n).min(len)).into_iter().collect(),
            Lines::Last(n) => range(len.saturating_sub(*n) + 1, len).into_iter().collect(),
            Lines::From(n) => range(*n, len).into_iter().collect(),
            Lines::Ranges(ranges) => ranges
                .iter()
                .filter_map(|&(a, b)| {
                    let a = if a == END { len } else { a };
                    let b = if b == END { len } else { b };
                    // sed prints just line A when B is before it.
                    range(a, b.max(a))
                })
                .collect(),
        }
    }
}

/// Lines of one file a command shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellRead {
    /// The file, joined with the directory the command ran in (not
    /// canonicalised).
    pub path: PathBuf,
    /// What the reading command selects of the file.
    pub lines: Lines,
    /// What the later stages of the pipeline keep of that stream, in order.
    pub then: Vec<Lines>,
}

impl ShellRead {
    /// The file's lines shown, as sorted inclusive ranges, for a file of
    /// `count` lines.
    pub fn resolve(&self, count: u64) -> Vec<(u64, u64)> {
        let mut shown = self.lines.positions(count);
        for filter in &self.then {
            let len: u64 = shown.iter().map(|&(a, b)| b - a + 1).sum();
            shown = filter
                .positions(len)
                .into_iter()
                .flat_map(|(a, b)| map_positions(&shown, a, b))
                .collect();
        }
        crate::session::merge(shown)
    }
}

/// The file lines at stream positions `a..=b` of a stream made of `ranges`.
fn map_positions(ranges: &[(u64, u64)], a: u64, b: u64) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let mut at = 0; // stream position before this range
    for &(start, end) in ranges {
        let len = end - start + 1;
        let (lo, hi) = (a.max(at + 1), b.min(at + len));
        if lo <= hi {
            out.push((start + (lo - at - 1), start + (hi - at - 1)));
        }
        at += len;
    }
    out
}

/// Every file read the command line shows, with `cwd` the directory it
/// starts in.
pub fn reads(command: &str, cwd: &Path) -> Vec<ShellRead> {
    let Some(pipelines) = shell_line::parse(command) else {
        return Vec::new();
    };
    let mut cwd = cwd.to_path_buf();
    let mut reads = Vec::new();
    for pipeline in &pipelines {
        let Some((first, rest)) = pipeline.stages.split_first() else {
            continue;
        };
        let words = unwrapped(&first.words);
        if rest.is_empty() && words.first().map(|w| w.text.as_str()) == Some("cd") {
            match words.get(1) {
                Some(dir) if dir.literal && words.len() == 2 => cwd = cwd.join(&dir.text),
                // `cd`, `cd -`, `cd $X`: no longer known where we are.
                _ => return reads,
            }
            continue;
        }
        let Some((files, lines)) = read_command(words, first) else {
            continue;
        };
        if pipeline.stages.last().is_some_and(|s| s.stdout_to_file) {
            continue;
        }
        let mut then = Vec::new();
        let mut followed = true;
        for stage in rest {
            match filter(unwrapped(&stage.words), stage) {
                Some(Lines::All) => {}
                Some(lines) => then.push(lines),
                None => followed = false,
            }
        }
        // A filter on the stream of several files would need their lengths
        // in order; not worth guessing.
        if !followed || (!then.is_empty() && files.len() != 1) {
            continue;
        }
        for file in files {
            reads.push(ShellRead {
                path: cwd.join(&file.text),
                lines: lines.clone(),
                then: then.clone(),
            });
        }
    }
    reads
}

/// The words without leading `VAR=value` assignments and an `rtk` (or
/// `rtk proxy`) in front of the command it runs.
fn unwrapped(words: &[Word]) -> &[Word] {
    let mut words = words;
    while words.first().is_some_and(|w| {
        w.text.contains('=') && !w.text.starts_with('=') && !w.text.starts_with('-')
    }) {
        words = &words[1..];
    }
    if words.first().is_some_and(|w| w.text == "rtk") {
        match words.get(1).map(|w| w.text.as_str()) {
            Some("proxy") => words = &words[2..],
            Some("cat" | "head" | "tail" | "sed" | "nl") => words = &words[1..],
            _ => {}
        }
    }
    words
}

/// A command that reads files: the files and the lines it selects of
/// each. `None` for any other command, an option not understood, or a
/// file name the shell would expand.
fn read_command<'w>(words: &'w [Word], stage: &'w Stage) -> Option<(Vec<&'w Word>, Lines)> {
    let (name, args) = words.split_first()?;
    if !name.literal {
        return None;
    }
    let name = name.text.rsplit('/').next().unwrap_or(&name.text);
    let (lines, mut files) = match (name, args.first().map(|w| w.text.as_str())) {
        ("cat", _) => options(args, "", &[], |_| Some(()))?.map_lines(Lines::All),
        ("nl", _) => options(args, "bdfhilnsvw", &[], |_| Some(()))?.map_lines(Lines::All),
        ("head" | "tail", _) => head_tail(name, args)?,
        ("sed", _) => sed(args)?,
        ("rtk", Some("read")) => rtk_read(&args[1..])?,
        _ => return None,
    };
    if files.is_empty() {
        files.extend(stage.stdin_file.as_ref());
    }
    if files.is_empty() || files.iter().any(|f| !f.literal || f.text == "-") {
        return None;
    }
    Some((files, lines))
}

/// A later pipeline stage: what it keeps of its input, `Lines::All` for
/// one that passes everything through, `None` for any other command.
fn filter(words: &[Word], stage: &Stage) -> Option<Lines> {
    let (name, args) = words.split_first()?;
    if stage.stdin_file.is_some() || !name.literal {
        return None;
    }
    let (lines, files) = match name.text.as_str() {
        "cat" => options(args, "", &[], |_| Some(()))?.map_lines(Lines::All),
        "nl" => options(args, "bdfhilnsvw", &[], |_| Some(()))?.map_lines(Lines::All),
        "less" | "more" if args.is_empty() => return Some(Lines::All),
        "head" | "tail" => head_tail(&name.text, args)?,
        "sed" => sed(args)?,
        _ => return None,
    };
    files.is_empty().then_some(lines)
}

/// Options and operands of a command: `flags` are the option letters
/// parsed, `takes_value` the short options that take a value.
struct Parsed<'w> {
    flags: Vec<(String, Option<&'w str>)>,
    operands: Vec<&'w Word>,
}

impl<'w> Parsed<'w> {
    fn map_lines(self, lines: Lines) -> (Lines, Vec<&'w Word>) {
        (lines, self.operands)
    }
}

/// Splits `args` into options (`-x`, `-xVALUE`, `-x VALUE` for letters in
/// `takes_value`, `--long[=value]`) and operands; `check` may refuse an
/// option (`None`), which refuses the command.
fn options<'w>(
    args: &'w [Word],
    takes_value: &str,
    long_values: &[&str],
    check: impl Fn(&(String, Option<&'w str>)) -> Option<()>,
) -> Option<Parsed<'w>> {
    let mut parsed = Parsed {
        flags: Vec::new(),
        operands: Vec::new(),
    };
    let mut i = 0;
    let mut options_done = false;
    while i < args.len() {
        let arg = &args[i];
        let text = arg.text.as_str();
        i += 1;
        if options_done || !text.starts_with('-') || text == "-" {
            parsed.operands.push(arg);
            continue;
        }
        if !arg.literal {
            return None;
        }
        if text == "--" {
            options_done = true;
            continue;
        }
        if let Some(long) = text.strip_prefix("--") {
            let flag = match long.split_once('=') {
                Some((name, value)) => (format!("--{name}"), Some(value)),
                None if long_values.contains(&text) => {
                    let value = args.get(i)?;
                    i += 1;
                    (text.to_string(), Some(value.text.as_str()))
                }
                None => (text.to_string(), None),
            };
            check(&flag)?;
            parsed.flags.push(flag);
            continue;
        }
        let letters = &text[1..];
        for (at, letter) in letters.char_indices() {
            if takes_value.contains(letter) {
                let rest = &letters[at + letter.len_utf8()..];
                let value = if rest.is_empty() {
                    let value = args.get(i)?;
                    i += 1;
                    value.text.as_str()
                } else {
                    rest
                };
                let flag = (format!("-{letter}"), Some(value));
                check(&flag)?;
                parsed.flags.push(flag);
                break;
            }
            let flag = (format!("-{letter}"), None);
            check(&flag)?;
            parsed.flags.push(flag);
        }
    }
    Some(parsed)
}

/// `head`/`tail` `[-n N | -N | --lines=N] [-q] [FILE]...`; bytes (`-c`)
/// and `tail -f` are refused, as is `head -n -N` (all but the last N).
fn head_tail<'w>(name: &str, args: &'w [Word]) -> Option<(Lines, Vec<&'w Word>)> {
    // `-20` is the old form of `-n 20`.
    let (count, args) = match args.first() {
        Some(w)
            if w.literal
                && w.text.len() > 1
                && w.text[1..].bytes().all(|b| b.is_ascii_digit())
                && w.text.starts_with('-') =>
        {
            (Some(w.text[1..].to_string()), &args[1..])
        }
        _ => (None, args),
    };
    let parsed = options(args, "n", &["--lines"], |(flag, _)| match flag.as_str() {
        "-n" | "--lines" | "-q" | "-v" | "--quiet" | "--silent" | "--verbose" => Some(()),
        _ => None,
    })?;
    let count = parsed
        .flags
        .iter()
        .rev()
        .find_map(|(flag, value)| {
            (flag == "-n" || flag == "--lines").then(|| value.map(str::to_string))
        })
        .flatten()
        .or(count)
        .unwrap_or_else(|| "10".into());
    let lines = if name == "head" {
        Lines::First(count.parse().ok()?)
    } else if let Some(from) = count.strip_prefix('+') {
        Lines::From(from.parse().ok()?)
    } else {
        Lines::Last(count.trim_start_matches('-').parse().ok()?)
    };
    Some((lines, parsed.operands))
}

/// `sed -n` with scripts made only of `N`, `N,M`, `$` addresses and `p`
/// (or `q`) commands; anything else (editing, regex addresses, `-i`) is
/// refused.
fn sed(args: &[Word]) -> Option<(Lines, Vec<&Word>)> {
    let parsed = options(args, "e", &["--expression"], |(flag, _)| {
        match flag.as_str() {
            "-n" | "--quiet" | "--silent" | "-e" | "--expression" | "-E" | "-r"
            | "--regexp-extended" | "-u" => Some(()),
            _ => None,
        }
    })?;
    if !parsed
        .flags
        .iter()
        .any(|(f, _)| f == "-n" || f == "--quiet" || f == "--silent")
    {
        return None;
    }
    let mut scripts: Vec<&str> = parsed
        .flags
        .iter()
        .filter(|(f, _)| f == "-e" || f == "--expression")
        .filter_map(|(_, v)| *v)
        .collect();
    let mut operands = parsed.operands;
    if scripts.is_empty() {
        if operands.is_empty() {
            return None;
        }
        let script = operands.remove(0);
        if !script.literal {
            return None;
        }
        scripts.push(&script.text);
    }
    let mut ranges = Vec::new();
    for command in scripts.iter().flat_map(|s| s.split([';', '\n'])) {
        let command = command.trim();
        if command.is_empty() {
            continue;
        }
        if let Some(address) = command.strip_suffix('p') {
            let address = address.trim();
            let number = |s: &str| -> Option<u64> {
                match s.trim() {
                    "$" => Some(END),
                    n => n.parse().ok(),
                }
            };
            let range = match address.split_once(',') {
                Some((a, b)) => (number(a)?, number(b)?),
                None => {
                    let a = number(address)?;
                    (a, a)
                }
            };
            ranges.push(range);
        } else if command
            .strip_suffix('q')
            .is_some_and(|n| n.trim().parse::<u64>().is_ok())
        {
            // `Nq` only stops sed early: what `p` printed before stands.
        } else {
            return None;
        }
    }
    Some((Lines::Ranges(ranges), operands))
}

/// `rtk read FILE [--level none] [-m N]`: only unfiltered reads count,
/// since rtk's default level drops comments and blank lines.
fn rtk_read(args: &[Word]) -> Option<(Lines, Vec<&Word>)> {
    let parsed = options(
        args,
        "lm",
        &["--level", "--max-lines"],
        |(flag, _)| match flag.as_str() {
            "-l" | "--level" | "-m" | "--max-lines" | "-n" | "--line-numbers" => Some(()),
            _ => None,
        },
    )?;
    let value = |names: [&str; 2]| {
        parsed
            .flags
            .iter()
            .rev()
            .find(|(f, _)| names.contains(&f.as_str()))
            .and_then(|(_, v)| *v)
    };
    if value(["-l", "--level"]) != Some("none") {
        return None;
    }
    let lines = match value(["-m", "--max-lines"]) {
        Some(n) => Lines::First(n.parse().ok()?),
        None => Lines::All,
    };
    Some((lines, parsed.operands))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(command: &str, count: u64) -> Vec<(String, Vec<(u64, u64)>)> {
        reads(command, Path::new("/r"))
            .into_iter()
            .map(|r| (r.path.display().to_string(), r.resolve(count)))
            .collect()
    }

    fn one(path: &str, ranges: &[(u64, u64)]) -> Vec<(String, Vec<(u64, u64)>)> {
        vec![(path.to_string(), ranges.to_vec())]
    }

    #[test]
    fn each_reading_command_selects_its_lines() {
        assert_eq!(shown("cat src/a.rs", 50), one("/r/src/a.rs", &[(1, 50)]));
        assert_eq!(shown("cat -n src/a.rs", 50), one("/r/src/a.rs", &[(1, 50)]));
        assert_eq!(shown("nl -ba a", 5), one("/r/a", &[(1, 5)]));
        assert_eq!(shown("head a", 50), one("/r/a", &[(1, 10)]));
        assert_eq!(shown("head -n 20 a", 50), one("/r/a", &[(1, 20)]));
        assert_eq!(shown("head -20 a", 50), one("/r/a", &[(1, 20)]));
        assert_eq!(shown("head --lines=5 a", 50), one("/r/a", &[(1, 5)]));
        assert_eq!(shown("head -n 99 a", 50), one("/r/a", &[(1, 50)]));
        assert_eq!(shown("tail -n 5 a", 50), one("/r/a", &[(46, 50)]));
        assert_eq!(shown("tail -n +45 a", 50), one("/r/a", &[(45, 50)]));
        assert_eq!(shown("sed -n '10,20p' a", 50), one("/r/a", &[(10, 20)]));
        assert_eq!(shown("sed -n 3p a", 50), one("/r/a", &[(3, 3)]));
        assert_eq!(shown("sed -n '40,$p' a", 50), one("/r/a", &[(40, 50)]));
        assert_eq!(
            shown("sed -n -e 1,2p -e '7p;30,31p' a", 50),
            one("/r/a", &[(1, 2), (7, 7), (30, 31)])
        );
        assert_eq!(shown("sed -n '1,20p;20q' a", 50), one("/r/a", &[(1, 20)]));
        assert_eq!(shown("rtk read a --level none", 9), one("/r/a", &[(1, 9)]));
        assert_eq!(shown("rtk head -n 3 a", 9), one("/r/a", &[(1, 3)]));
        assert_eq!(shown("rtk proxy cat a", 9), one("/r/a", &[(1, 9)]));
        assert_eq!(shown("head -n 3 < a", 9), one("/r/a", &[(1, 3)]));
    }

    #[test]
    fn pipelines_through_simple_filters_are_followed() {
        assert_eq!(shown("cat a | head -n 5", 50), one("/r/a", &[(1, 5)]));
        assert_eq!(
            shown("cat -n a | sed -n '10,12p'", 50),
            one("/r/a", &[(10, 12)])
        );
        assert_eq!(
            shown("sed -n '10,30p' a | tail -n 5", 50),
            one("/r/a", &[(26, 30)])
        );
        assert_eq!(
            shown("sed -n '1,3p;10,12p' a | head -4", 50),
            one("/r/a", &[(1, 3), (10, 10)])
        );
        assert_eq!(shown("nl a | less", 5), one("/r/a", &[(1, 5)]));
        assert_eq!(
            shown("cat a 2>/dev/null | head -3", 50),
            one("/r/a", &[(1, 3)])
        );
    }

    #[test]
    fn several_files_lists_and_cd_are_followed() {
        assert_eq!(
            shown("cat a b", 4),
            vec![("/r/a".into(), vec![(1, 4)]), ("/r/b".into(), vec![(1, 4)])]
        );
        assert_eq!(
            shown("cd src && head -2 x.rs; cat /abs/y", 4),
            vec![
                ("/r/src/x.rs".into(), vec![(1, 2)]),
                ("/abs/y".into(), vec![(1, 4)])
            ]
        );
        assert_eq!(shown("FOO=1 cat a", 3), one("/r/a", &[(1, 3)]));
    }

    #[test]
    fn what_cannot_be_known_records_nothing() {
        for command in [
            "cat a | grep foo",
            "cat a | wc -l",
            "cat a > b",
            "cat a | head -3 > out",
            "head -c 100 a",
            "tail -f a",
            "head -n -5 a",
            "sed 's/x/y/' a",
            "sed -n '/fn/p' a",
            "sed -n -i 1p a",
            "rtk read a",
            "cat $FILE",
            "cat src/*.rs",
            "cat",
            "cat -",
            "cat $(ls)",
            "cat a b | head -3",
            "cd $D && cat a",
            "grep -n foo a",
            "less a",
            "head -x a",
        ] {
            assert_eq!(shown(command, 50), vec![], "{command}");
        }
    }
}
