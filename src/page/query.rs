//! What was asked: the query as planned, which every page of a search
//! names (its header, its JSON). Planning it is the search pipeline's
//! (`search::query`).

/// The shortest literal run that makes a pattern rankable.
pub const MIN_ANCHOR_CHARS: usize = 3;

/// How the query text is read (`--kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// Regex when the text uses regex syntax (an escape, a quantifier, a
    /// class with a range, an alternation, `^` first or `$` last), else
    /// the text as written.
    Auto,
    /// The text as a fixed string (`-F`).
    Literal,
    /// The text as a regular expression (rg's syntax).
    Regex,
    /// A whole-word identifier (`-F -w`).
    Symbol,
    /// An ast-grep pattern (`--structural`), matched as code, not text.
    #[value(skip)]
    Structural,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Auto => "auto",
            Kind::Literal => "literal",
            Kind::Regex => "regex",
            Kind::Symbol => "symbol",
            Kind::Structural => "structural",
        }
    }
}

/// A planned query.
#[derive(Debug, Clone)]
pub struct Query {
    /// The text as typed.
    pub text: String,
    /// Literal, Regex or Symbol (never Auto).
    pub kind: Kind,
    /// `-i`.
    pub ignore_case: bool,
    /// `-w` (also set for Symbol).
    pub word: bool,
    /// The longest run of literal characters the pattern requires; shorter
    /// than [`MIN_ANCHOR_CHARS`] means passthrough.
    pub anchor: String,
    /// The identifier whose definitions rank first, if there is one.
    pub name: Option<String>,
    /// The words of a multi-word literal query (for the any-word fallback
    /// and term coverage), each once whatever its ASCII case (the fallback
    /// ignores case), in the order typed; empty for single words and
    /// regexes.
    pub words: Vec<String>,
    /// `--kind auto` chose the kind (the text could be read the other way).
    pub auto: bool,
}
