//! scout's integration tests: one test binary, one module per command or
//! concern. Each runs the real `scout` binary against the real `rg` on
//! fixture trees made in temporary directories ([`util::Fixture`]).
//!
//! Tests that need something a plain `cargo test` lacks (a second rg, the
//! official MCP clients, the encoder's weights, the reference tokenizer)
//! are `#[ignore]`d and run by `.ci/run` with a filter, e.g.
//! `cargo test --test it rg_versions:: -- --ignored`.

mod trees;
mod util;

mod bench_checker;
mod call;
mod callers;
mod color;
mod definition_first;
mod doctor;
mod edit;
mod edit_faults;
mod encoder;
mod faults;
mod files;
mod grep;
mod hooks;
mod layers;
mod man;
mod mcp;
mod mcp_sdk;
mod meaning;
mod memory;
mod pages;
mod read;
mod rg_versions;
mod search;
mod setup;
mod smart;
mod special_paths;
mod structural;
mod tokenizer;
