//! `scout call`: one JSON request, as the argument or on stdin, answered
//! on stdout by the request layer ([`crate::request`]).

use std::io::{Read, Write};

use anyhow::Result;

use crate::cli::CallArgs;
use crate::dirs::OsEnvLookup;
use crate::exit::ExitStatus;
use crate::request;

/// Serves one request: from `args.request`, or `input` when there is none
/// (or it is `-`).
pub fn run(
    args: &CallArgs,
    input: &mut dyn Read,
    env: OsEnvLookup<'_>,
    out: &mut dyn Write,
) -> Result<ExitStatus> {
    let text = match args.request.as_deref() {
        Some(text) if text != "-" => text.to_string(),
        _ => {
            let mut text = String::new();
            match input.read_to_string(&mut text) {
                Ok(_) => text,
                Err(e) => {
                    let answer =
                        request::error_answer_for(format!("could not read the request: {e}"));
                    return write(out, &answer);
                }
            }
        }
    };
    write(out, &request::answer(&text, env))
}

fn write(out: &mut dyn Write, answer: &request::Answer) -> Result<ExitStatus> {
    out.write_all(&answer.to_json())?;
    out.write_all(b"\n")?;
    Ok(answer.status)
}
