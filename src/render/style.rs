//! Colour, for the person at a terminal: the one place that decides what
//! is coloured and how.
//!
//! Renderers never write escape codes. They write a page as [`Styled`]
//! text: its plain bytes, which are all that is counted (the budget, the
//! `~Ntok` estimate, the comparison with plain `rg -n`), and the [`Role`]
//! of some of its pieces (a path, a line number, a quoted line). Only
//! when the page is written does a [`Painter`] turn roles into escapes,
//! and then only with [`Color::Always`]; with [`Color::Never`] it writes
//! the plain bytes and nothing else, so piped output is what it always
//! was. Colour can therefore change neither what is counted nor what is
//! cut.
//!
//! The styles follow rg's defaults, so a page reads like rg's: paths
//! magenta, line numbers green, matches bold red; scout's own pieces get
//! one style each, definition headings cyan and the header and footer
//! lines (what the page holds, what it left out) dimmed. A style never
//! runs past a line end: each line of a styled piece is closed with a
//! reset before its newline, as rg does.
//!
//! Whether to colour follows rg: `--color always|never`, else (auto) only
//! when stdout is a terminal, `NO_COLOR` is unset or empty and `TERM` is
//! set and not `dumb`. [`Color::resolve`] decides it once, in the
//! commands' settings.

use std::io::{self, Write};
use std::ops::Range;

use anstyle::{AnsiColor, Style};

use crate::rg::Matcher;

/// `--color`'s values, rg's: what [`Color`] is resolved from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Only when stdout is a terminal, NO_COLOR is unset or empty, and TERM is set and not dumb.
    Auto,
    /// Always colour, even into a pipe or a file.
    Always,
    /// Never colour.
    Never,
}

/// What a piece of a page is, for its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A file's path (rg: magenta).
    Path,
    /// A line number (rg: green).
    LineNumber,
    /// The text of a quoted line: the matches in it are coloured as rg
    /// colours a match (bold red), the rest is left as it is.
    Quote,
    /// A definition heading, `KIND NAME (A-B)` (cyan).
    Heading,
    /// The header and footer lines and cut markers: what the page holds
    /// and what it left out (dimmed).
    Frame,
}

impl Role {
    fn style(self) -> Style {
        match self {
            Role::Path => Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Magenta))),
            Role::LineNumber => Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Green))),
            Role::Quote => Style::new(),
            Role::Heading => Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Cyan))),
            Role::Frame => Style::new().dimmed(),
        }
    }
}

/// The style of a match inside a [`Role::Quote`] piece (rg: bold red).
const MATCH: Style = Style::new()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)))
    .bold();

/// Text as a renderer writes it: plain bytes, and the roles of some byte
/// ranges of them. Writing to it with `write!` adds plain bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Styled {
    bytes: Vec<u8>,
    /// Byte ranges of `bytes` with a role: in order, never overlapping.
    roles: Vec<(Range<usize>, Role)>,
}

impl Styled {
    pub fn new() -> Styled {
        Styled::default()
    }

    /// Room for `bytes` plain bytes, and for the roles of that much
    /// text (one for every 32 bytes: a page gives one to about every 40,
    /// a path, a line number, a quote), so that neither grows while it is
    /// written.
    pub fn with_capacity(bytes: usize) -> Styled {
        Styled {
            bytes: Vec::with_capacity(bytes),
            roles: Vec::with_capacity(bytes / 32),
        }
    }

    /// The plain bytes: what is counted, and what a pipe receives.
    pub fn plain(&self) -> &[u8] {
        &self.bytes
    }

    /// Length of the plain bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Appends bytes with no role.
    pub fn push(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// Appends bytes in `role`.
    pub fn push_styled(&mut self, role: Role, bytes: &[u8]) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(bytes);
        self.mark(start, role);
    }

    /// Appends formatted text in `role` (`format_args!`).
    pub fn write_styled(&mut self, role: Role, args: std::fmt::Arguments<'_>) {
        let start = self.bytes.len();
        let _ = self.write_fmt(args);
        self.mark(start, role);
    }

    /// Appends `n` in decimal, as `{}` writes it, with no role: without the
    /// formatting machinery, since a page writes one for every line it quotes.
    pub fn push_decimal(&mut self, n: u64) {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut rest = n;
        loop {
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        self.bytes.extend_from_slice(&digits[at..]);
    }

    /// Gives the bytes appended since `start` (an earlier
    /// [`Styled::len`], with no role given since) `role`.
    pub fn style_from(&mut self, start: usize, role: Role) {
        self.mark(start, role);
    }

    /// Appends `other`, roles and all.
    pub fn append(&mut self, other: &Styled) {
        let shift = self.bytes.len();
        self.bytes.extend_from_slice(&other.bytes);
        self.roles.extend(
            other
                .roles
                .iter()
                .map(|(range, role)| (range.start + shift..range.end + shift, *role)),
        );
    }

    /// Gives the bytes from `start` to the end `role`.
    fn mark(&mut self, start: usize, role: Role) {
        if start < self.bytes.len() {
            self.roles.push((start..self.bytes.len(), role));
        }
    }
}

impl Write for Styled {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl From<Vec<u8>> for Styled {
    fn from(bytes: Vec<u8>) -> Styled {
        Styled {
            bytes,
            roles: Vec::new(),
        }
    }
}

/// Whether output is coloured, decided once per command.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Color {
    /// Plain bytes only: pipes, `--json`, `--color never`.
    #[default]
    Never,
    /// Escape codes around styled pieces.
    Always,
}

impl Color {
    /// Decides `--color` as rg does: `always` and `never` are obeyed;
    /// `auto` colours only when stdout is a terminal, `NO_COLOR` is unset
    /// or empty, and `TERM` is set and not `dumb`. `env` reads one
    /// variable (`None` when unset).
    pub fn resolve(
        choice: ColorChoice,
        stdout_is_terminal: bool,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Color {
        let auto = || {
            let no_color = env("NO_COLOR").is_some_and(|v| !v.is_empty());
            let dumb = env("TERM").is_none_or(|t| t.is_empty() || t == "dumb");
            stdout_is_terminal && !no_color && !dumb
        };
        match choice {
            ColorChoice::Always => Color::Always,
            ColorChoice::Never => Color::Never,
            ColorChoice::Auto if auto() => Color::Always,
            ColorChoice::Auto => Color::Never,
        }
    }
}

/// Writes [`Styled`] text, coloured or not; the matches in quoted lines
/// are those its matcher finds.
#[derive(Debug, Clone, Default)]
pub struct Painter {
    color: Color,
    matcher: Option<Matcher>,
}

impl Painter {
    /// A painter that colours with `color`; `matcher` builds what finds
    /// the matches in quoted lines (none are marked without one), called
    /// only when colour is on, so plain output costs nothing more.
    pub fn new(color: Color, matcher: impl FnOnce() -> Option<Matcher>) -> Painter {
        Painter {
            color,
            matcher: match color {
                Color::Always => matcher(),
                Color::Never => None,
            },
        }
    }

    /// A painter writing plain bytes only.
    pub fn plain() -> Painter {
        Painter::default()
    }

    pub fn color(&self) -> Color {
        self.color
    }

    /// Writes `text`: its plain bytes, with escapes around its styled
    /// pieces when colour is on.
    pub fn write(&self, out: &mut dyn Write, text: &Styled) -> io::Result<()> {
        if self.color == Color::Never {
            return out.write_all(&text.bytes);
        }
        let mut painted = Vec::with_capacity(text.bytes.len() + 16 * text.roles.len());
        let mut at = 0;
        for (range, role) in &text.roles {
            painted.extend_from_slice(&text.bytes[at..range.start]);
            self.paint(&mut painted, *role, &text.bytes[range.clone()]);
            at = range.end;
        }
        painted.extend_from_slice(&text.bytes[at..]);
        out.write_all(&painted)
    }

    /// Writes one piece in its role's style, closing the style before each
    /// newline so that none runs past a line end.
    fn paint(&self, out: &mut Vec<u8>, role: Role, piece: &[u8]) {
        for (i, line) in piece.split(|&b| b == b'\n').enumerate() {
            if i > 0 {
                out.push(b'\n');
            }
            match (role, &self.matcher) {
                (Role::Quote, Some(matcher)) => paint_matches(out, matcher, line),
                (Role::Quote, None) => out.extend_from_slice(line),
                _ => styled(out, role.style(), line),
            }
        }
    }
}

/// Writes `text` in `style` (nothing around an empty text).
fn styled(out: &mut Vec<u8>, style: Style, text: &[u8]) {
    if text.is_empty() || style.is_plain() {
        out.extend_from_slice(text);
        return;
    }
    let _ = style.write_to(out);
    out.extend_from_slice(text);
    let _ = style.write_reset_to(out);
}

/// Writes `line` with the matches `matcher` finds in it in [`MATCH`].
fn paint_matches(out: &mut Vec<u8>, matcher: &Matcher, line: &[u8]) {
    let mut spans = Vec::new();
    matcher.spans(line, &mut spans);
    let mut at = 0;
    for (start, end) in spans {
        if start < at || end > line.len() {
            continue;
        }
        out.extend_from_slice(&line[at..start]);
        styled(out, MATCH, &line[start..end]);
        at = end;
    }
    out.extend_from_slice(&line[at..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rg::SearchFlags;

    fn matcher(pattern: &str) -> Option<Matcher> {
        Matcher::new(&SearchFlags {
            patterns: vec![pattern.into()],
            fixed_strings: true,
            ..SearchFlags::default()
        })
    }

    #[test]
    fn decimals_are_what_display_writes() {
        for n in [0, 7, 10, 99, 100, 4096, 1_000_001, u64::MAX] {
            let mut direct = Styled::new();
            direct.push(b"x");
            let start = direct.len();
            direct.push_decimal(n);
            direct.style_from(start, Role::LineNumber);
            let mut formatted = Styled::new();
            formatted.push(b"x");
            formatted.write_styled(Role::LineNumber, format_args!("{n}"));
            assert_eq!(direct, formatted);
        }
    }

    fn sample() -> Styled {
        let mut text = Styled::new();
        text.push_styled(Role::Path, b"src/a.rs");
        text.push(b"  (2x)\n  ");
        text.write_styled(Role::LineNumber, format_args!("{}", 12));
        text.push(b": ");
        text.push_styled(Role::Quote, b"let parse = parse_args();");
        text.push(b"\n");
        text.push_styled(Role::Frame, b"+1 files not shown\nrepro: rg x\n");
        text
    }

    fn written(painter: &Painter, text: &Styled) -> String {
        let mut out = Vec::new();
        painter.write(&mut out, text).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn never_writes_the_plain_bytes_only() {
        let text = sample();
        let plain =
            "src/a.rs  (2x)\n  12: let parse = parse_args();\n+1 files not shown\nrepro: rg x\n";
        assert_eq!(text.plain(), plain.as_bytes());
        let never = Painter::new(Color::Never, || matcher("parse"));
        assert_eq!(written(&never, &text), plain);
        assert_eq!(written(&Painter::plain(), &text), plain);
    }

    #[test]
    fn always_styles_each_role_as_rg_would_and_never_across_a_line_end() {
        let painter = Painter::new(Color::Always, || matcher("parse"));
        assert_eq!(
            written(&painter, &sample()),
            "\x1b[35msrc/a.rs\x1b[0m  (2x)\n  \x1b[32m12\x1b[0m: let \
             \x1b[1m\x1b[31mparse\x1b[0m = \x1b[1m\x1b[31mparse\x1b[0m_args();\n\
             \x1b[2m+1 files not shown\x1b[0m\n\x1b[2mrepro: rg x\x1b[0m\n"
        );
    }

    #[test]
    fn without_a_matcher_quoted_text_stays_plain() {
        let painter = Painter::new(Color::Always, || None);
        let text = written(&painter, &sample());
        assert!(text.contains(": let parse = parse_args();\n"), "{text:?}");
    }

    #[test]
    fn appended_text_keeps_its_roles() {
        let mut head = Styled::from(b"query: x\n".to_vec());
        let mut body = Styled::new();
        body.push(b"  ");
        body.push_styled(Role::Heading, b"function f (1-2)");
        head.append(&body);
        assert_eq!(
            written(&Painter::new(Color::Always, || None), &head),
            "query: x\n  \x1b[36mfunction f (1-2)\x1b[0m"
        );
    }

    #[test]
    fn the_choice_follows_rg() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        let xterm = env(&[("TERM", "xterm-256color")]);
        use ColorChoice::{Always, Auto, Never};
        assert_eq!(Color::resolve(Auto, true, &xterm), Color::Always);
        assert_eq!(Color::resolve(Auto, false, &xterm), Color::Never);
        assert_eq!(Color::resolve(Never, true, &xterm), Color::Never);
        assert_eq!(Color::resolve(Always, false, &xterm), Color::Always);
        let no_color = env(&[("TERM", "xterm"), ("NO_COLOR", "1")]);
        assert_eq!(Color::resolve(Auto, true, &no_color), Color::Never);
        assert_eq!(Color::resolve(Always, true, &no_color), Color::Always);
        let empty_no_color = env(&[("TERM", "xterm"), ("NO_COLOR", "")]);
        assert_eq!(Color::resolve(Auto, true, &empty_no_color), Color::Always);
        assert_eq!(
            Color::resolve(Auto, true, &env(&[("TERM", "dumb")])),
            Color::Never
        );
        assert_eq!(Color::resolve(Auto, true, &env(&[])), Color::Never);
    }
}
