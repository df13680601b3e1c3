//! `scout smart`: a question in words answered by the meaning pipeline
//! ([`crate::smart`]), or a code name answered as `scout search` answers
//! it ([`super::search`]).

use std::io::Write;
use std::time::Instant;

use anyhow::Result;

use crate::cli::Asked;
use crate::exit::ExitStatus;

/// Answers what was asked, writing the page to `out` and warnings to `err`.
pub fn run(
    asked: &Asked,
    started: Instant,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    match asked {
        Asked::Question(settings) => crate::smart::run(settings, started, out, err),
        Asked::Name(search) => super::search::run(search, out, err),
    }
}
