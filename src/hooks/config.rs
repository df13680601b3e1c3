//! The rules' configuration file: `$XDG_CONFIG_HOME/scout/hooks.json`
//! (else `~/.config/scout/hooks.json`). Without the file every rule warns.
//!
//! ```json
//! { "rules": { "reread": "off", "unbudgeted-search": "warn" } }
//! ```
//!
//! Each rule is `"warn"` (the default) or `"off"`. Rules only ever warn:
//! there is no setting that blocks a tool call. An unknown key or value
//! is an error, so a typo is never silently ignored: inside a hook it is
//! logged like any failure (and the hook stays quiet), and `scout doctor`
//! names it.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Deserialize;

/// The file's name under scout's configuration directory.
pub const FILE_NAME: &str = "hooks.json";

/// A rule's setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    #[default]
    Warn,
    Off,
}

/// Which rules warn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// `reread`: reading lines the session already has, from an unchanged file.
    #[serde(default)]
    pub reread: Level,
    /// `unbudgeted-search`: rg, `grep -r` or Grep over the whole tree with no limit.
    #[serde(default, rename = "unbudgeted-search")]
    pub unbudgeted_search: Level,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    rules: Rules,
}

/// The configuration file under `config_dir` (`$XDG_CONFIG_HOME/scout`).
pub fn path(config_dir: &Path) -> PathBuf {
    config_dir.join(FILE_NAME)
}

/// The rules in `file`: every rule warns when it does not exist; an
/// unreadable or invalid file is an error naming it and what is wrong.
pub fn load(file: Option<&Path>) -> Result<Rules> {
    let Some(file) = file else {
        return Ok(Rules::default());
    };
    let bytes = match std::fs::read(file) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Rules::default()),
        Err(e) => return Err(e).with_context(|| format!("{}: cannot be read", file.display())),
    };
    let parsed: File = serde_json::from_slice(&bytes).with_context(|| {
        format!(
            "{}: not a scout hooks configuration (expected {{\"rules\": {{\"reread\": \"warn\"|\"off\", \"unbudgeted-search\": \"warn\"|\"off\"}}}})",
            file.display()
        )
    })?;
    Ok(parsed.rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_warns_everywhere_and_a_rule_can_be_turned_off() {
        let dir = tempfile::tempdir().unwrap();
        let file = path(dir.path());
        assert_eq!(load(Some(&file)).unwrap(), Rules::default());
        std::fs::write(&file, r#"{"rules": {"reread": "off"}}"#).unwrap();
        let rules = load(Some(&file)).unwrap();
        assert_eq!(
            (rules.reread, rules.unbudgeted_search),
            (Level::Off, Level::Warn)
        );
    }

    #[test]
    fn typos_are_errors_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = path(dir.path());
        for bad in [
            r#"{"rules": {"re-read": "off"}}"#,
            r#"{"rules": {"reread": "block"}}"#,
            r#"{"rule": {}}"#,
            "{",
        ] {
            std::fs::write(&file, bad).unwrap();
            let e = format!("{:#}", load(Some(&file)).unwrap_err());
            assert!(e.contains("hooks.json"), "{bad}: {e}");
        }
    }
}
