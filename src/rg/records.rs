//! rg's plain match lines, read in place of `--json` when scout can find
//! the match spans itself (see [`Matcher`](super::Matcher)).
//!
//! `rg -n --no-heading --with-filename --null` prints one record per
//! matching line: `PATH \0 LINE : TEXT \n`. It is a third of the bytes of
//! `--json` and rg writes it faster; on a query with 12,000 matching lines
//! in the Python standard library the `--json` run took 10 ms longer.
//!
//! Two other lines can appear, both without a NUL: a notice that rg stopped
//! in a binary file after printing its matches, and a notice that an
//! explicitly named binary file matches (its lines are not printed, so the
//! counts are unknown and the caller must ask `--json`). A path may hold a
//! newline, which splits one record over several reads; such pieces are
//! joined until a NUL or a notice completes them.

/// A line of plain output, parsed.
#[derive(Debug, PartialEq, Eq)]
pub enum Record<'a> {
    /// A matching line; `text` keeps its line terminator.
    Line {
        path: &'a [u8],
        number: u64,
        text: &'a [u8],
    },
    /// rg found a NUL byte in `path` after printing its matching lines and
    /// stopped searching it.
    BinaryStopped { path: &'a [u8] },
    /// `path` is binary and matches; rg printed none of its lines.
    BinaryMatches { path: &'a [u8] },
}

/// Longest run of NUL-less text joined while waiting for the rest of a
/// record (a path with newlines). Past it the pieces are dropped as
/// unreadable.
const MAX_CARRY: usize = 64 * 1024;

const STOPPED: &[u8] =
    b": WARNING: stopped searching binary file after match (found \"\\0\" byte around offset ";
const MATCHES: &[u8] = b": binary file matches (found \"\\0\" byte around offset ";

/// Splits rg's plain output into [`Record`]s, one stdout line at a time.
#[derive(Debug, Default)]
pub struct RecordReader {
    carry: Vec<u8>,
    /// Lines of output in `carry`.
    carry_lines: u64,
    /// The last record returned was `carry`, to be cleared on the next feed.
    joined: bool,
    /// Lines that were not part of an rg record (never expected from rg).
    pub unparsed: u64,
}

impl RecordReader {
    /// Takes one line of stdout (with its `\n`); returns the record it
    /// completes, if any.
    pub fn feed<'a>(&'a mut self, line: &'a [u8]) -> Option<Record<'a>> {
        if std::mem::take(&mut self.joined) {
            self.carry.clear();
            self.carry_lines = 0;
        }
        if !line.ends_with(b"\n") {
            // rg ends every line it prints with a newline, even the last
            // line of a file that has none: output that stops without one
            // was cut (rg killed mid-record), and its half line is not a
            // record to count or quote.
            self.carry.extend_from_slice(line);
            self.carry_lines += 1;
            return None;
        }
        if self.carry.is_empty() {
            if let Some(record) = parse(line) {
                return Some(record);
            }
            self.carry.extend_from_slice(line);
            self.carry_lines = 1;
        } else {
            self.carry.extend_from_slice(line);
            self.carry_lines += 1;
            if parse(&self.carry).is_some() {
                self.joined = true;
                return parse(&self.carry);
            }
        }
        if self.carry.len() > MAX_CARRY {
            self.unparsed += std::mem::take(&mut self.carry_lines);
            self.carry.clear();
        }
        None
    }

    /// Whether pieces of a record are waiting for the rest: only then can
    /// the next record [`RecordReader::feed`] returns span several lines
    /// (a path with a newline); otherwise it comes from the line fed alone.
    pub fn holds_pieces(&self) -> bool {
        !self.joined && !self.carry.is_empty()
    }

    /// Counts the lines left over at the end of output, which formed no
    /// record, and returns every unparsed line.
    pub fn finish(&mut self) -> u64 {
        if !std::mem::take(&mut self.joined) && !self.carry.is_empty() {
            self.unparsed += self.carry_lines;
        }
        self.carry.clear();
        self.carry_lines = 0;
        self.unparsed
    }
}

/// Whether a line of rg's plain output (with `--null` or without) is its
/// notice that it stopped in a binary file after printing its matches:
/// output, but not a matching line.
pub fn is_stopped_notice(line: &[u8]) -> bool {
    !line.contains(&0) && matches!(parse(line), Some(Record::BinaryStopped { .. }))
}

fn parse(line: &[u8]) -> Option<Record<'_>> {
    if let Some(nul) = memchr::memchr(0, line) {
        let (path, rest) = (&line[..nul], &line[nul + 1..]);
        let colon = memchr::memchr(b':', rest)?;
        let number = line_number(&rest[..colon])?;
        return Some(Record::Line {
            path,
            number,
            text: &rest[colon + 1..],
        });
    }
    let body = line.strip_suffix(b"\n")?.strip_suffix(b")")?;
    let digits = body.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    let head = &body[..body.len() - digits];
    if digits == 0 {
        return None;
    }
    if let Some(path) = head.strip_suffix(STOPPED) {
        return Some(Record::BinaryStopped { path });
    }
    head.strip_suffix(MATCHES)
        .map(|path| Record::BinaryMatches { path })
}

/// rg's decimal line number: digits only, within `u64`.
fn line_number(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u64, |n, &b| {
        let digit = b.checked_sub(b'0').filter(|&d| d <= 9)?;
        n.checked_mul(10)?.checked_add(u64::from(digit))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_numbers_are_digits_within_u64() {
        assert_eq!(line_number(b"1"), Some(1));
        assert_eq!(line_number(b"0042"), Some(42));
        assert_eq!(line_number(b"18446744073709551615"), Some(u64::MAX));
        assert_eq!(line_number(b"18446744073709551616"), None);
        for bad in [&b""[..], b"+1", b"-1", b"1a", b" 1", b"\xd9\xa3"] {
            assert_eq!(line_number(bad), None, "{bad:?}");
        }
    }

    fn records(output: &[u8]) -> (Vec<String>, u64) {
        let mut reader = RecordReader::default();
        let mut seen = Vec::new();
        for line in output.split_inclusive(|&b| b == b'\n') {
            if let Some(record) = reader.feed(line) {
                seen.push(format!("{record:?}"));
            }
        }
        (seen, reader.finish())
    }

    #[test]
    fn lines_split_at_the_first_nul_and_the_first_colon() {
        let (seen, unparsed) = records(b"./a:b.rs\x0012:let x = a::b;\r\nc\x007:x\x00y\n");
        assert_eq!(unparsed, 0);
        assert_eq!(
            seen,
            [
                format!(
                    "{:?}",
                    Record::Line {
                        path: b"./a:b.rs",
                        number: 12,
                        text: b"let x = a::b;\r\n"
                    }
                ),
                format!(
                    "{:?}",
                    Record::Line {
                        path: b"c",
                        number: 7,
                        text: b"x\x00y\n"
                    }
                ),
            ]
        );
    }

    /// Captured from ripgrep 13.0.0 on a file with a NUL after its matches,
    /// and on an explicitly named binary file.
    #[test]
    fn binary_notices_name_their_path() {
        let (seen, unparsed) = records(
            b"./big.txt: WARNING: stopped searching binary file after match (found \"\\0\" byte around offset 180000)\n\
              c.dat: binary file matches (found \"\\0\" byte around offset 1)\n",
        );
        assert_eq!(unparsed, 0);
        assert_eq!(
            seen,
            [
                format!("{:?}", Record::BinaryStopped { path: b"./big.txt" }),
                format!("{:?}", Record::BinaryMatches { path: b"c.dat" }),
            ]
        );
    }

    #[test]
    fn a_stopped_notice_is_told_from_a_matching_line() {
        assert!(is_stopped_notice(
            b"./big.txt: WARNING: stopped searching binary file after match (found \"\\0\" byte around offset 9)\n"
        ));
        assert!(!is_stopped_notice(
            b"./a.rs:3:WARNING: stopped searching binary file (x 1)\n"
        ));
        assert!(!is_stopped_notice(
            b"c.dat: binary file matches (found \"\\0\" byte around offset 1)\n"
        ));
    }

    /// Output cut inside a record (rg killed) had left a half line that
    /// was counted and quoted as if it were the file's line.
    #[test]
    fn regression_a_last_record_without_its_newline_is_unparsed() {
        let (seen, unparsed) = records(b"a.rs\x001:whole\nb.rs\x002:half a li");
        assert_eq!(
            seen,
            [format!(
                "{:?}",
                Record::Line {
                    path: b"a.rs",
                    number: 1,
                    text: b"whole\n"
                }
            )]
        );
        assert_eq!(unparsed, 1);
    }

    #[test]
    fn a_path_with_newlines_is_joined_and_garbage_is_counted() {
        let (seen, unparsed) = records(b"dir/a\nb\nc\x003:text\nnot rg output\n");
        assert_eq!(
            seen,
            [format!(
                "{:?}",
                Record::Line {
                    path: b"dir/a\nb\nc",
                    number: 3,
                    text: b"text\n"
                }
            )]
        );
        assert_eq!(unparsed, 1);
    }

    #[test]
    fn pieces_are_held_only_between_the_lines_of_one_record() {
        let mut reader = RecordReader::default();
        let mut held = Vec::new();
        for line in [
            &b"a.rs\x001:x\n"[..],
            b"dir/a\n",
            b"b\x002:y\n",
            b"c.rs\x003:z\n",
        ] {
            held.push(reader.holds_pieces());
            let joined = matches!(
                reader.feed(line),
                Some(Record::Line { path, .. }) if path.contains(&b'\n')
            );
            held.push(joined);
        }
        // Before each line, then whether its record holds a newline.
        assert_eq!(held, [false, false, false, false, true, true, false, false]);
    }
}
