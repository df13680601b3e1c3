//! `scout setup mcp --client NAME`: the entry that registers `scout mcp`
//! with an MCP client, in the file and format that client reads.
//!
//! | client | file (default first) | servers under |
//! |---|---|---|
//! | `cursor` | `~/.cursor/mcp.json`; `--project`: `.cursor/mcp.json` | `mcpServers` |
//! | `claude-desktop` | macOS `~/Library/Application Support/Claude/claude_desktop_config.json`, elsewhere `$XDG_CONFIG_HOME/Claude/claude_desktop_config.json` | `mcpServers` |
//! | `codex` | `$CODEX_HOME/config.toml` (`~/.codex/config.toml`); `--project`: `.codex/config.toml` | `[mcp_servers.scout]` |
//! | `vscode` | `.vscode/mcp.json`; `--user`: the profile's `Code/User/mcp.json` | `servers` |
//! | `claude` (Claude Code) | `.mcp.json` at the project's root; `--user`: `~/.claude.json` | `mcpServers` |
//!
//! The entry is named `scout`: the absolute path of this binary and
//! `["mcp"]` (with `"type": "stdio"` where the client's documentation
//! asks for it). Edits keep every other byte of the file
//! ([`json_edit`], `toml_edit`), comments included where the client allows
//! them (VS Code); a file that does not parse as its client reads it is
//! refused, naming the line and column.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use jsonc_parser::cst::{CstObject, CstRootNode};
use serde_json::{json, Value};

use super::json_edit::{self, Dialect};

/// An MCP client scout can register with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Client {
    Cursor,
    ClaudeDesktop,
    Codex,
    Vscode,
    Claude,
}

/// Which of a client's configuration files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Project,
    User,
}

impl Client {
    /// Every client, for `scout doctor`.
    pub const ALL: [Client; 5] = [
        Client::Cursor,
        Client::ClaudeDesktop,
        Client::Codex,
        Client::Vscode,
        Client::Claude,
    ];

    /// The name `--client` takes.
    pub fn name(self) -> &'static str {
        match self {
            Client::Cursor => "cursor",
            Client::ClaudeDesktop => "claude-desktop",
            Client::Codex => "codex",
            Client::Vscode => "vscode",
            Client::Claude => "claude",
        }
    }

    /// The scope used when none is asked for.
    pub fn default_scope(self) -> Scope {
        match self {
            Client::Vscode | Client::Claude => Scope::Project,
            Client::Cursor | Client::ClaudeDesktop | Client::Codex => Scope::User,
        }
    }

    /// The scopes the client has.
    pub fn scopes(self) -> &'static [Scope] {
        match self {
            Client::ClaudeDesktop => &[Scope::User],
            _ => &[Scope::Project, Scope::User],
        }
    }

    /// The object key servers go under (JSON clients).
    fn servers_key(self) -> &'static str {
        match self {
            Client::Vscode => "servers",
            _ => "mcpServers",
        }
    }

    /// How the client reads its file (JSON clients): VS Code's `mcp.json`
    /// is JSON with comments and trailing commas.
    fn dialect(self) -> Dialect {
        match self {
            Client::Vscode => Dialect::Jsonc,
            _ => Dialect::Json,
        }
    }

    /// The entry for `exe` (JSON clients).
    fn entry(self, exe: &Path) -> Value {
        let command = exe.display().to_string();
        match self {
            Client::ClaudeDesktop => json!({"command": command, "args": ["mcp"]}),
            _ => json!({"type": "stdio", "command": command, "args": ["mcp"]}),
        }
    }
}

/// Where the client reads its servers, in `scope`: `root` is the
/// project's root (the git work tree's, else the working directory),
/// `home` and `config` the user's home and `$XDG_CONFIG_HOME`, `codex_home`
/// `$CODEX_HOME`.
pub fn config_path(
    client: Client,
    scope: Scope,
    root: &Path,
    home: Option<&Path>,
    config: Option<&Path>,
    codex_home: Option<&Path>,
) -> Result<PathBuf> {
    if !client.scopes().contains(&scope) {
        bail!(
            "{} has no {} configuration",
            client.name(),
            if scope == Scope::Project {
                "project"
            } else {
                "user"
            }
        );
    }
    let home = || -> Result<&Path> {
        match home {
            Some(home) => Ok(home),
            None => bail!(
                "HOME is not set: cannot find {}'s user configuration",
                client.name()
            ),
        }
    };
    let macos = cfg!(target_os = "macos");
    Ok(match (client, scope) {
        (Client::Cursor, Scope::Project) => root.join(".cursor/mcp.json"),
        (Client::Cursor, Scope::User) => home()?.join(".cursor/mcp.json"),
        (Client::ClaudeDesktop, _) if macos => {
            home()?.join("Library/Application Support/Claude/claude_desktop_config.json")
        }
        (Client::ClaudeDesktop, _) => match config {
            Some(config) => config.join("Claude/claude_desktop_config.json"),
            None => home()?.join(".config/Claude/claude_desktop_config.json"),
        },
        (Client::Codex, Scope::Project) => root.join(".codex/config.toml"),
        (Client::Codex, Scope::User) => match codex_home {
            Some(dir) => dir.join("config.toml"),
            None => home()?.join(".codex/config.toml"),
        },
        (Client::Vscode, Scope::Project) => root.join(".vscode/mcp.json"),
        (Client::Vscode, Scope::User) if macos => {
            home()?.join("Library/Application Support/Code/User/mcp.json")
        }
        (Client::Vscode, Scope::User) => match config {
            Some(config) => config.join("Code/User/mcp.json"),
            None => home()?.join(".config/Code/User/mcp.json"),
        },
        (Client::Claude, Scope::Project) => root.join(".mcp.json"),
        (Client::Claude, Scope::User) => home()?.join(".claude.json"),
    })
}

/// The file with scout's entry for `exe`, or `None` when it is there
/// already, exactly.
pub fn install(client: Client, doc: &str, exe: &Path) -> Result<Option<String>> {
    if client == Client::Codex {
        return install_toml(doc, exe);
    }
    let entry = client.entry(exe);
    let key = client.servers_key();
    let root = json_edit::parse(doc, client.dialect())?;
    let top = checked(&root, key)?;
    match top.object_value(key) {
        None => {
            top.append(key, json_edit::input(&json!({ "scout": entry }))?);
        }
        Some(servers) => match servers.get("scout") {
            Some(ours) if ours.to_serde_value().as_ref() == Some(&entry) => return Ok(None),
            Some(ours) => ours.set_value(json_edit::input(&entry)?),
            None => {
                servers.append("scout", json_edit::input(&entry)?);
            }
        },
    }
    Ok(Some(root.to_string()))
}

/// The file without scout's entry, or `None` when it has none.
pub fn remove(client: Client, doc: &str) -> Result<Option<String>> {
    if doc.trim().is_empty() {
        return Ok(None);
    }
    if client == Client::Codex {
        return remove_toml(doc);
    }
    let key = client.servers_key();
    let root = json_edit::parse(doc, client.dialect())?;
    let top = checked(&root, key)?;
    let Some(ours) = top
        .object_value(key)
        .and_then(|servers| servers.get("scout"))
    else {
        return Ok(None);
    };
    ours.remove();
    Ok(Some(root.to_string()))
}

/// The command scout's entry runs, when the file has one.
pub fn registered(client: Client, doc: &str) -> Result<Option<String>> {
    if doc.trim().is_empty() {
        return Ok(None);
    }
    if client == Client::Codex {
        let parsed = parse_toml(doc)?;
        return Ok(parsed
            .get("mcp_servers")
            .and_then(|s| s.get("scout"))
            .and_then(|s| s.get("command"))
            .and_then(|c| c.as_str())
            .map(str::to_string));
    }
    let root = json_edit::parse(doc, client.dialect())?;
    let value = checked(&root, client.servers_key())?.to_serde_value();
    Ok(value
        .as_ref()
        .and_then(|v| v[client.servers_key()]["scout"]["command"].as_str())
        .map(str::to_string))
}

/// A JSON client's file's top-level object (made when the file holds
/// only comments), whose `key`, if any, is an object.
fn checked(root: &CstRootNode, key: &str) -> Result<CstObject> {
    let Some(top) = root.object_value_or_create() else {
        bail!("not a JSON object");
    };
    if top.get(key).is_some() && top.object_value(key).is_none() {
        bail!("\"{key}\" is not an object");
    }
    Ok(top)
}

fn parse_toml(doc: &str) -> Result<toml_edit::DocumentMut> {
    match doc.parse::<toml_edit::DocumentMut>() {
        Ok(parsed) => Ok(parsed),
        Err(e) => {
            let (line, column) = e
                .span()
                .map(|span| line_column(doc, span.start))
                .unwrap_or((1, 1));
            bail!(
                "not valid TOML at line {line}, column {column} ({})",
                e.message()
            )
        }
    }
}

/// The 1-based line and column of byte `at`.
fn line_column(doc: &str, at: usize) -> (usize, usize) {
    let before = &doc[..at.min(doc.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, column)
}

fn install_toml(doc: &str, exe: &Path) -> Result<Option<String>> {
    let mut parsed = parse_toml(doc)?;
    let command = exe.display().to_string();
    let ours = parsed.get("mcp_servers").and_then(|s| s.get("scout"));
    let same = ours.is_some_and(|entry| {
        entry.get("command").and_then(|c| c.as_str()) == Some(&command)
            && entry
                .get("args")
                .and_then(|a| a.as_array())
                .is_some_and(|a| a.len() == 1 && a.get(0).and_then(|v| v.as_str()) == Some("mcp"))
    });
    if same {
        return Ok(None);
    }
    let servers = parsed
        .entry("mcp_servers")
        .or_insert_with(|| {
            let mut table = toml_edit::Table::new();
            table.set_implicit(true);
            toml_edit::Item::Table(table)
        })
        .as_table_mut();
    let Some(servers) = servers else {
        bail!("mcp_servers is not a table");
    };
    let mut entry = toml_edit::Table::new();
    entry.insert("command", toml_edit::value(command));
    let mut args = toml_edit::Array::new();
    args.push("mcp");
    entry.insert("args", toml_edit::value(args));
    servers.insert("scout", toml_edit::Item::Table(entry));
    Ok(Some(parsed.to_string()))
}

fn remove_toml(doc: &str) -> Result<Option<String>> {
    let mut parsed = parse_toml(doc)?;
    let Some(servers) = parsed.get_mut("mcp_servers").and_then(|s| s.as_table_mut()) else {
        return Ok(None);
    };
    if servers.remove("scout").is_none() {
        return Ok(None);
    }
    if servers.is_empty() && servers.is_implicit() {
        parsed.remove("mcp_servers");
    }
    Ok(Some(parsed.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXE: &str = "/usr/local/bin/scout";

    #[test]
    fn a_json_entry_is_added_kept_and_removed_leaving_the_rest_as_written() {
        let doc = "{\n    // no\n}";
        assert!(install(Client::Cursor, doc, Path::new(EXE))
            .unwrap_err()
            .to_string()
            .contains("line 2, column 5"));
        let doc = "{\n  \"mcpServers\": {\n    \"other\": { \"command\": \"x\" }\n  },\n  \"theme\": 1\n}\n";
        let added = install(Client::Cursor, doc, Path::new(EXE))
            .unwrap()
            .unwrap();
        let value: Value = serde_json::from_str(&added).unwrap();
        assert_eq!(value["mcpServers"]["scout"]["command"], EXE);
        assert_eq!(value["mcpServers"]["scout"]["args"], json!(["mcp"]));
        assert_eq!(value["mcpServers"]["other"]["command"], "x");
        assert!(
            added.contains("    \"other\": { \"command\": \"x\" },\n"),
            "{added}"
        );
        assert_eq!(
            install(Client::Cursor, &added, Path::new(EXE)).unwrap(),
            None
        );
        let moved = install(Client::Cursor, &added, Path::new("/opt/scout"))
            .unwrap()
            .unwrap();
        let value: Value = serde_json::from_str(&moved).unwrap();
        assert_eq!(value["mcpServers"]["scout"]["command"], "/opt/scout");
        let removed = remove(Client::Cursor, &added).unwrap().unwrap();
        let value: Value = serde_json::from_str(&removed).unwrap();
        assert!(value["mcpServers"].get("scout").is_none());
        assert_eq!(value["theme"], 1);
        assert_eq!(remove(Client::Cursor, &removed).unwrap(), None);
    }

    #[test]
    fn vscode_takes_servers_and_an_empty_file_gets_a_whole_document() {
        let new = install(Client::Vscode, "", Path::new(EXE))
            .unwrap()
            .unwrap();
        let value: Value = serde_json::from_str(&new).unwrap();
        assert_eq!(value["servers"]["scout"]["type"], "stdio");
        let desktop = install(Client::ClaudeDesktop, "", Path::new(EXE))
            .unwrap()
            .unwrap();
        let value: Value = serde_json::from_str(&desktop).unwrap();
        assert!(value["mcpServers"]["scout"].get("type").is_none());
        assert_eq!(
            registered(Client::ClaudeDesktop, &desktop)
                .unwrap()
                .as_deref(),
            Some(EXE)
        );
    }

    /// VS Code reads its mcp.json as JSONC; scout edits it, every
    /// comment and the trailing-comma style kept.
    #[test]
    fn a_vscode_file_with_comments_and_trailing_commas_is_edited_not_refused() {
        let doc = "{\n  // Servers for this workspace.\n  \"servers\": {\n    /* the database */\n    \"db\": { \"command\": \"db-mcp\" }, // pinned\n  },\n}\n";
        let added = install(Client::Vscode, doc, Path::new(EXE))
            .unwrap()
            .unwrap();
        for kept in [
            "  // Servers for this workspace.\n",
            "    /* the database */\n",
            "    \"db\": { \"command\": \"db-mcp\" }, // pinned\n",
        ] {
            assert!(added.contains(kept), "lost {kept:?}:\n{added}");
        }
        assert!(added.contains("    \"scout\": {\n      \"args\": [\"mcp\"],\n      \"command\": \"/usr/local/bin/scout\",\n      \"type\": \"stdio\",\n    },\n"), "{added}");
        assert_eq!(
            registered(Client::Vscode, &added).unwrap().as_deref(),
            Some(EXE)
        );
        assert_eq!(
            install(Client::Vscode, &added, Path::new(EXE)).unwrap(),
            None
        );
        assert_eq!(remove(Client::Vscode, &added).unwrap().unwrap(), doc);
        // The same comments in a file whose client reads plain JSON are
        // refused where the client would refuse them.
        let e = install(Client::ClaudeDesktop, doc, Path::new(EXE)).unwrap_err();
        assert!(
            e.to_string()
                .contains("line 2, column 3 (comments are not allowed)"),
            "{e}"
        );
    }

    #[test]
    fn codex_gets_a_toml_table_and_keeps_its_comments() {
        let doc = "# my settings\nmodel = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\" # keep\n";
        let added = install(Client::Codex, doc, Path::new(EXE))
            .unwrap()
            .unwrap();
        assert!(added.starts_with(doc), "{added}");
        assert!(
            added.contains(
                "[mcp_servers.scout]\ncommand = \"/usr/local/bin/scout\"\nargs = [\"mcp\"]\n"
            ),
            "{added}"
        );
        assert_eq!(
            install(Client::Codex, &added, Path::new(EXE)).unwrap(),
            None
        );
        assert_eq!(
            registered(Client::Codex, &added).unwrap().as_deref(),
            Some(EXE)
        );
        let removed = remove(Client::Codex, &added).unwrap().unwrap();
        assert_eq!(removed, doc);
        let broken = install(Client::Codex, "a = 1\nb = [\n", Path::new(EXE)).unwrap_err();
        assert!(broken.to_string().contains("line 2, column 6"), "{broken}");
    }

    #[test]
    fn each_client_has_its_documented_file() {
        let (root, home) = (Path::new("/p"), Some(Path::new("/h")));
        let path = |client, scope| config_path(client, scope, root, home, None, None).unwrap();
        assert_eq!(
            path(Client::Claude, Scope::Project),
            Path::new("/p/.mcp.json")
        );
        assert_eq!(
            path(Client::Cursor, Scope::User),
            Path::new("/h/.cursor/mcp.json")
        );
        assert_eq!(
            path(Client::Vscode, Scope::Project),
            Path::new("/p/.vscode/mcp.json")
        );
        assert_eq!(
            path(Client::Codex, Scope::User),
            Path::new("/h/.codex/config.toml")
        );
        assert_eq!(
            config_path(
                Client::Codex,
                Scope::User,
                root,
                home,
                None,
                Some(Path::new("/c"))
            )
            .unwrap(),
            Path::new("/c/config.toml")
        );
        assert!(config_path(
            Client::ClaudeDesktop,
            Scope::Project,
            root,
            home,
            None,
            None
        )
        .is_err());
    }
}
