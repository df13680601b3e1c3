//! The page of `scout smart`: the question's concepts, the candidates,
//! the hits with why each was ranked, what meaning search covered; and
//! the hits of an agent's answer (`scout smart --agent`). Built and cut
//! to the budget by `smart::page`.

use serde::Serialize;

use crate::defs::Def;
use crate::page::symbol::Symbol;

/// One hit as shown.
#[derive(Debug, Serialize)]
pub struct Hit {
    pub rank: usize,
    /// The path in JSON (lossily decoded: JSON holds text).
    pub path: String,
    /// The path's bytes, as the text page prints them.
    #[serde(skip)]
    pub raw_path: Vec<u8>,
    pub line: u32,
    /// The enclosing definition, when the hit is one.
    #[serde(serialize_with = "symbol")]
    pub def: Option<Def>,
    /// Score × 1000, rounded.
    pub score: u64,
    pub why: String,
    pub signals: Vec<SignalView>,
    /// The cosine of the hit's vector with the question's, when the
    /// meaning search ranked it among its best.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meaning: Option<f32>,
    /// The file's next best hits, folded under this one (best first).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<Also>,
}

/// A further hit of a hit's file, folded under it.
#[derive(Debug, Serialize)]
pub struct Also {
    pub line: u32,
    #[serde(serialize_with = "symbol")]
    pub def: Option<Def>,
    /// Score × 1000, rounded.
    pub score: u64,
}

/// A definition in JSON as `scout search` writes one.
fn symbol<S: serde::Serializer>(def: &Option<Def>, s: S) -> Result<S::Ok, S::Error> {
    def.as_ref().map(Symbol::of).serialize(s)
}

#[derive(Debug, Serialize)]
pub struct SignalView {
    pub field: &'static str,
    pub points: u64,
    /// The question's words this field matched.
    pub words: Vec<String>,
    /// The code words that matched them.
    pub matched: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct ConceptView {
    pub word: String,
    pub stem: String,
    /// The concept's other forms: spelling variants, character literals
    /// and phrase terms (weighing as the word), then the vocabulary's
    /// related words (weighing less).
    pub related: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct CandidateView {
    /// Files rg searched.
    pub searched: u64,
    /// Files holding a form of a concept.
    pub files: usize,
    /// Of those, read and parsed.
    pub read: usize,
    /// Units scored: definitions, and whole files without any.
    pub units: usize,
    /// Units with a matching word outside their path.
    pub matched: usize,
}

/// The page.
#[derive(Debug, Serialize)]
pub struct Page {
    /// `question` when `scout search` was asked a question in words and
    /// answers it as smart does (its header then says so); absent from
    /// smart's own page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    pub question: String,
    /// The files of the hits, in their order, each once: the places to
    /// read.
    pub files: Vec<String>,
    pub concepts: Vec<ConceptView>,
    /// The question's words past the concepts' cap, not looked for.
    pub unused: Vec<String>,
    pub candidates: CandidateView,
    pub hits: Vec<Hit>,
    /// Hits found (up to --max-results) but cut by the token budget.
    pub left_out: usize,
    pub tokens: usize,
    pub elapsed_ms: u64,
    /// The rg command listing the candidate files with their counts.
    pub repro: String,
    /// What the meaning search covered, or why it did not run.
    pub meaning: MeaningView,
}

/// The meaning search, as the header reports it.
#[derive(Debug, Serialize)]
pub struct MeaningView {
    /// `on`, or `off` (ranked by words only).
    pub state: &'static str,
    /// Why it is off.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The tree's code files (`None`: the tree was not listed, as it is
    /// large; only candidates were compared); of those, compared whole;
    /// and those with some of their definitions compared (the words'
    /// first ones).
    pub files: Option<usize>,
    /// When the tree was not listed: the candidates' code files, which
    /// `covered` and `partly` then count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidate_files: Option<usize>,
    pub covered: usize,
    pub partly: usize,
    /// Definitions compared; and of those, embedded by this run (the
    /// rest came from the cache): like `elapsed_ms`, the one figure that
    /// depends on the cache, so the text page leaves it out.
    pub units: usize,
    pub embedded: usize,
}

/// One hit of an agent's answer, validated.
#[derive(Debug, Serialize, PartialEq)]
pub struct AgentHit {
    pub path: String,
    pub line: Option<u64>,
    pub why: String,
}
