//! The unranked path (invariant I1): a pattern with no literal anchor of
//! 3+ characters cannot be ranked, so rg's lines are printed as they are,
//! in path order, capped at `--passthrough-cap` bytes, with the cut
//! announced on stderr and the command that shows everything. With colour
//! on, the lines read as records are coloured as rg colours them; the cap
//! counts their plain bytes.

use std::io::Write;

use anyhow::{Context, Result};

use crate::exit::ExitStatus;
use crate::page::tally::{strip_newline, strip_terminator, Quote, MAX_QUOTE_BYTES};
use crate::render;
use crate::render::style::{Color, Painter, Role, Styled};
use crate::rg::{run_plain, Flow, Matcher, Record, RecordReader};
use crate::search::collect::check_rg;
use crate::search::settings::SearchSettings;

/// Prints rg's lines for an anchorless pattern, within the cap.
pub fn passthrough(
    settings: &SearchSettings,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    // With a matcher, rg's lines come as records, so that a line too long
    // for what is left of the cap can be cut around its match instead of
    // ending the output (one 1 MB line would otherwise show nothing).
    let matcher = Matcher::new(&settings.flags).filter(|_| !settings.rg_config);
    let painter = Painter::new(settings.color, || matcher.clone());
    let command = match &matcher {
        Some(_) => settings.flags.sorted_records(),
        None => settings.flags.plain(),
    };
    let mut capped = Capped {
        cap: settings.passthrough_cap.unwrap_or(u64::MAX),
        ..Capped::default()
    };
    let mut reader = RecordReader::default();
    let outcome = run_plain(&settings.rg, &command, |line| {
        let (piece, is_match) = match &matcher {
            None => (Piece::Raw(line), !crate::rg::is_stopped_notice(line)),
            Some(_) => match reader.feed(line) {
                None => return Flow::Continue,
                Some(Record::Line { path, number, text }) => {
                    let path = if settings.with_filename { path } else { b"" };
                    (Piece::Line { path, number, text }, true)
                }
                Some(Record::BinaryStopped { .. }) => (Piece::Raw(line), false),
                Some(Record::BinaryMatches { .. }) => (Piece::Raw(line), true),
            },
        };
        capped.take(&piece, is_match, matcher.as_ref(), &painter, out)
    })?;
    if let Some(e) = capped.write_error {
        return Err(e).context("writing the output");
    }
    let partial = check_rg(settings, &outcome, err)?;
    if capped.printed < capped.total {
        let Capped {
            cap,
            printed,
            total,
            shown,
            cut,
            matching,
            ..
        } = capped;
        let cut_note = if cut > 0 {
            format!(", {cut} of them cut to {MAX_QUOTE_BYTES} bytes around the match")
        } else {
            String::new()
        };
        writeln!(
            err,
            "scout: no literal anchor of 3+ characters, so rg's lines are shown unranked; \
             cut at {cap} bytes: {shown} of {matching} matching lines ({printed} of {total} bytes) shown{cut_note}. \
             All of them: {} (or --passthrough-cap 0)",
            settings.flags.repro()
        )?;
    }
    Ok(partial.unwrap_or(if capped.matching > 0 {
        ExitStatus::Shown
    } else {
        ExitStatus::NoMatch
    }))
}

/// rg's lines written up to a cap in bytes, and what was and was not.
#[derive(Default)]
struct Capped {
    /// Bytes that may be printed.
    cap: u64,
    /// Bytes printed, and in all.
    printed: u64,
    total: u64,
    /// Matching lines shown, cut to fit, and in all (rg's warnings about
    /// binary files it stopped reading are lines of its output, not
    /// matches).
    shown: u64,
    cut: u64,
    matching: u64,
    /// Set once a line did not fit: nothing after it is printed.
    full: bool,
    spans: Vec<(usize, usize)>,
    write_error: Option<std::io::Error>,
}

impl Capped {
    /// Prints `piece` if it fits what is left of the cap (cut around its
    /// match when a matcher can find it and the whole does not fit), and
    /// counts it either way.
    fn take(
        &mut self,
        piece: &Piece<'_>,
        is_match: bool,
        matcher: Option<&Matcher>,
        painter: &Painter,
        out: &mut dyn Write,
    ) -> Flow {
        let whole = piece.len();
        self.total += whole;
        self.matching += u64::from(is_match);
        if self.full || self.write_error.is_some() {
            return Flow::Continue;
        }
        let left = self.cap - self.printed;
        let written = if whole <= left {
            piece.write(out, painter).map(|()| whole)
        } else {
            match matcher.and_then(|m| piece.cut(m, &mut self.spans)) {
                Some(short) if short.len() as u64 <= left => {
                    self.cut += 1;
                    painter.write(out, &short).map(|()| short.len() as u64)
                }
                _ => {
                    self.full = true;
                    return Flow::Continue;
                }
            }
        };
        match written {
            Ok(bytes) => {
                self.printed += bytes;
                self.shown += u64::from(is_match);
                Flow::Continue
            }
            Err(e) => {
                self.write_error = Some(e);
                Flow::Stop
            }
        }
    }
}

/// One line of passthrough output: as rg printed it, or a record to print
/// as `rg -n` would (`PATH:LINE:TEXT`, `LINE:TEXT` with no path).
enum Piece<'a> {
    Raw(&'a [u8]),
    Line {
        path: &'a [u8],
        number: u64,
        text: &'a [u8],
    },
}

impl Piece<'_> {
    fn head(path: &[u8], number: u64) -> Styled {
        let mut out = Styled::new();
        if !path.is_empty() {
            out.push_styled(Role::Path, path);
            out.push(b":");
        }
        out.write_styled(Role::LineNumber, format_args!("{number}"));
        out.push(b":");
        out
    }

    /// Bytes of the line as `rg -n` prints it.
    fn len(&self) -> u64 {
        match self {
            Piece::Raw(line) => line.len() as u64,
            Piece::Line { path, number, text } => {
                let path = if path.is_empty() { 0 } else { path.len() + 1 };
                (path + number.to_string().len() + 1 + text.len()) as u64
                    + u64::from(!text.ends_with(b"\n"))
            }
        }
    }

    fn write(&self, out: &mut dyn Write, painter: &Painter) -> std::io::Result<()> {
        match self {
            Piece::Raw(line) => out.write_all(line),
            Piece::Line { path, number, text } => {
                if painter.color() == Color::Always {
                    let mut line = Piece::head(path, *number);
                    line.push_styled(Role::Quote, strip_terminator(text));
                    line.push(&text[strip_terminator(text).len()..]);
                    if !text.ends_with(b"\n") {
                        line.push(b"\n");
                    }
                    return painter.write(out, &line);
                }
                out.write_all(Piece::head(path, *number).plain())?;
                out.write_all(text)?;
                if !text.ends_with(b"\n") {
                    out.write_all(b"\n")?;
                }
                Ok(())
            }
        }
    }

    /// The line cut to [`MAX_QUOTE_BYTES`] around its first match, marked
    /// as on a ranked page; `None` when it is short or not a record.
    fn cut(&self, matcher: &Matcher, spans: &mut Vec<(usize, usize)>) -> Option<Styled> {
        let Piece::Line { path, number, text } = self else {
            return None;
        };
        spans.clear();
        matcher.spans(strip_terminator(text), spans);
        // A cut quotes the `\r` rg prints, as a ranked page does.
        let span = spans.first().copied().unwrap_or((0, 0));
        let quote = Quote::around(*number, strip_newline(text), span);
        if quote.cut_bytes() == 0 {
            return None;
        }
        let mut out = Piece::head(path, *number);
        render::text::quote_text(&mut out, &quote);
        Some(out)
    }
}
