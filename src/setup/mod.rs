//! `scout setup`: installing scout into agent harnesses.
//!
//! - [`claude`]: scout's hooks in Claude Code's settings file, merged
//!   with what is there ([`json_edit`] keeps untouched bytes as they are).
//! - [`agents_md`]: a section in `AGENTS.md` or `CLAUDE.md`, between
//!   markers, for harnesses without hooks.
//! - [`mcp`]: `scout mcp` registered in an MCP client's configuration
//!   (JSON through [`json_edit`], Codex's TOML through `toml_edit`).
//!
//! This module computes file contents; `commands::setup` reads and writes
//! the files (with a backup) and prints.

pub mod agents_md;
pub mod claude;
pub mod json_edit;
pub mod mcp;
