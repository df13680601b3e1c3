//! scout's hooks in a Claude Code settings file (`.claude/settings.json`
//! in a project, `~/.claude/settings.json` for the user).
//!
//! Reference: Claude Code "Hooks reference",
//! <https://code.claude.com/docs/en/hooks> ("Configuration"): settings
//! hold `"hooks": {EVENT: [{"matcher": M, "hooks": [{"type": "command",
//! "command": C, "timeout": SECONDS}]}]}`, where the matcher is matched
//! against the tool name (`Read|Bash` is a regex alternation; exact names
//! match exactly). scout installs one matcher group per event:
//!
//! | event | matcher | why |
//! |---|---|---|
//! | PreToolUse | `Read\|Bash\|Grep` | the rules warn before a call |
//! | PostToolUse | `Read\|Bash` | reads enter the memory; Bash closes its pending note |
//! | PostToolUseFailure | `Bash` | a failed command closes its pending note |
//! | SessionStart | (none: every source) | exports `SCOUT_SESSION_ID` to Bash |
//!
//! SessionStart matches on how the session started (`startup`, `resume`,
//! `clear`, `compact`); scout's group has no matcher, which the reference
//! reads as all of them.
//!
//! A group is scout's when every hook in it runs `.../scout hook EVENT`;
//! only such groups are replaced or removed, so other hooks (even in the
//! same event) and every other setting stay byte for byte.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use jsonc_parser::cst::{CstInputValue, CstObject, CstRootNode};
use serde::Serialize;
use serde_json::Value;

use super::json_edit::{self, Dialect};
use crate::hooks::shell_line;
use crate::hooks::Event;
use crate::shell;

/// The events scout hooks, and the tools each is for.
pub const EVENTS: [(Event, &str); 4] = [
    (Event::PreToolUse, "Read|Bash|Grep"),
    (Event::PostToolUse, "Read|Bash"),
    (Event::PostToolUseFailure, "Bash"),
    (Event::SessionStart, ""),
];

/// Seconds Claude Code waits for a hook before cancelling it; scout's
/// take milliseconds, this only bounds a stuck disk.
pub const TIMEOUT_SECONDS: u64 = 10;

/// Where the settings file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// `.claude/settings.json` at the project's root.
    Project,
    /// `~/.claude/settings.json`.
    User,
}

/// The settings file for `scope`: the project is the git work tree
/// holding `cwd` (else `cwd` itself).
pub fn settings_path(scope: Scope, cwd: &Path, home: Option<&Path>) -> Result<PathBuf> {
    match scope {
        Scope::Project => {
            let root = cwd
                .ancestors()
                .find(|d| d.join(".git").exists())
                .unwrap_or(cwd);
            Ok(root.join(".claude/settings.json"))
        }
        Scope::User => match home {
            Some(home) => Ok(home.join(".claude/settings.json")),
            None => bail!("HOME is not set, so there is no ~/.claude/settings.json; use --project"),
        },
    }
}

/// The command Claude Code runs for `event`.
pub fn hook_command(exe: &Path, event: Event) -> String {
    format!(
        "{} hook {}",
        shell::quote(exe.as_os_str().as_encoded_bytes()),
        event.name()
    )
}

/// scout's matcher group for `event`, its members in the reference's
/// order.
#[derive(Debug, Clone, Serialize)]
pub struct Group {
    /// Tools (or sources) matched; omitted (all) when empty.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub matcher: String,
    pub hooks: Vec<HookEntry>,
}

/// One command hook.
#[derive(Debug, Clone, Serialize)]
pub struct HookEntry {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub command: String,
    /// Seconds.
    pub timeout: u64,
}

/// scout's matcher group for `event`.
pub fn group(exe: &Path, event: Event, matcher: &str) -> Group {
    Group {
        matcher: matcher.into(),
        hooks: vec![HookEntry {
            kind: "command",
            command: hook_command(exe, event),
            timeout: TIMEOUT_SECONDS,
        }],
    }
}

/// `group` as a JSON value, to compare with what a file holds.
fn group_value(exe: &Path, event: Event, matcher: &str) -> Value {
    serde_json::to_value(group(exe, event, matcher)).unwrap_or_default()
}

/// The scout binary and event a hook command runs, when it is
/// `.../scout hook EVENT`.
pub fn scout_command(command: &str) -> Option<(PathBuf, String)> {
    let pipelines = shell_line::parse(command)?;
    let [pipeline] = &pipelines[..] else {
        return None;
    };
    let [stage] = &pipeline.stages[..] else {
        return None;
    };
    let words = stage.texts();
    let [exe, "hook", event] = words[..] else {
        return None;
    };
    let name = Path::new(exe).file_name()?;
    (name == "scout").then(|| (PathBuf::from(exe), event.to_string()))
}

/// Whether a matcher group is scout's: a non-empty `hooks` list of
/// scout hook commands only.
fn is_scout_group(group: &Value) -> bool {
    let Some(hooks) = group.get("hooks").and_then(Value::as_array) else {
        return false;
    };
    !hooks.is_empty()
        && hooks.iter().all(|h| {
            h.get("command")
                .and_then(Value::as_str)
                .and_then(scout_command)
                .is_some()
        })
}

/// scout's hooks found in a settings document: (event, scout binary).
pub fn installed(doc: &str) -> Result<Vec<(String, PathBuf)>> {
    if doc.trim().is_empty() {
        return Ok(Vec::new());
    }
    let value = json_edit::parse(doc, Dialect::Json)?
        .to_serde_value()
        .unwrap_or_default();
    let mut found = Vec::new();
    if let Some(hooks) = value.get("hooks").and_then(Value::as_object) {
        for (event, groups) in hooks {
            for group in groups.as_array().into_iter().flatten() {
                if !is_scout_group(group) {
                    continue;
                }
                for hook in group["hooks"].as_array().into_iter().flatten() {
                    if let Some((exe, _)) = hook["command"].as_str().and_then(scout_command) {
                        found.push((event.clone(), exe));
                    }
                }
            }
        }
    }
    Ok(found)
}

/// The document with scout's hooks for `exe` installed, or `None` when
/// they already are, exactly.
pub fn install(doc: &str, exe: &Path) -> Result<Option<String>> {
    let root = json_edit::parse(doc, Dialect::Json)?;
    let (top, value) = checked(&root)?;
    let exactly = EVENTS.iter().all(|(event, matcher)| {
        let groups = value["hooks"][event.name()].as_array();
        let ours: Vec<&Value> = groups
            .into_iter()
            .flatten()
            .filter(|g| is_scout_group(g))
            .collect();
        ours == [&group_value(exe, *event, matcher)]
    });
    let others_elsewhere = value["hooks"].as_object().is_some_and(|hooks| {
        hooks.iter().any(|(name, groups)| {
            !EVENTS.iter().any(|(e, _)| e.name() == name)
                && groups.as_array().into_iter().flatten().any(is_scout_group)
        })
    });
    if exactly && !others_elsewhere {
        return Ok(None);
    }
    strip(&top);
    for (event, matcher) in EVENTS {
        let ours = json_edit::input(&group(exe, event, matcher))?;
        match top.object_value("hooks") {
            None => {
                let hooks = CstInputValue::Object(vec![(
                    event.name().to_string(),
                    CstInputValue::Array(vec![ours]),
                )]);
                top.append("hooks", hooks);
            }
            Some(hooks) => match hooks.array_value(event.name()) {
                None => {
                    hooks.append(event.name(), CstInputValue::Array(vec![ours]));
                }
                Some(groups) => {
                    groups.append(ours);
                }
            },
        }
    }
    Ok(Some(root.to_string()))
}

/// The document without scout's hooks, or `None` when it has none.
pub fn remove(doc: &str) -> Result<Option<String>> {
    if doc.trim().is_empty() {
        return Ok(None);
    }
    let root = json_edit::parse(doc, Dialect::Json)?;
    let (top, _) = checked(&root)?;
    Ok(strip(&top).then(|| root.to_string()))
}

/// The settings' top-level object and its value: a JSON object (made
/// when the file is empty) whose `hooks`, if any, is an object of arrays.
fn checked(root: &CstRootNode) -> Result<(CstObject, Value)> {
    let Some(top) = root.object_value_or_create() else {
        bail!("the settings are not a JSON object");
    };
    let value = top.to_serde_value().unwrap_or_default();
    if let Some(hooks) = value.get("hooks") {
        let Some(hooks) = hooks.as_object() else {
            bail!("\"hooks\" is not an object; fix it by hand");
        };
        if let Some((name, _)) = hooks.iter().find(|(_, v)| !v.is_array()) {
            bail!("\"hooks\".{name:?} is not a list; fix it by hand");
        }
    }
    Ok((top, value))
}

/// Deletes scout's groups from the settings' object `top`, and with
/// them an event list they leave empty, and a `hooks` object so left
/// empty; whether there were any.
fn strip(top: &CstObject) -> bool {
    let Some(hooks) = top.get("hooks") else {
        return false;
    };
    let mut changed = false;
    for event in hooks
        .object_value()
        .map(|h| h.properties())
        .unwrap_or_default()
    {
        let groups = event
            .array_value()
            .map(|g| g.elements())
            .unwrap_or_default();
        let scouts: Vec<_> = groups
            .iter()
            .filter(|g| g.to_serde_value().is_some_and(|g| is_scout_group(&g)))
            .collect();
        if scouts.is_empty() {
            continue;
        }
        changed = true;
        if scouts.len() == groups.len() {
            event.remove();
        } else {
            for group in scouts {
                group.clone().remove();
            }
        }
    }
    if hooks
        .object_value()
        .is_some_and(|h| h.properties().is_empty())
        && changed
    {
        hooks.remove();
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXE: &str = "/opt/bin/scout";

    #[test]
    fn scout_commands_are_recognised() {
        assert_eq!(
            scout_command("/opt/bin/scout hook PreToolUse"),
            Some((PathBuf::from(EXE), "PreToolUse".into()))
        );
        assert_eq!(
            scout_command("'/my dir/scout' hook PostToolUse").map(|c| c.0),
            Some(PathBuf::from("/my dir/scout"))
        );
        assert_eq!(scout_command("scouting hook PreToolUse"), None);
        assert_eq!(
            scout_command("/opt/bin/scout hook PreToolUse && rm -rf x"),
            None
        );
        assert_eq!(scout_command("prettier --write"), None);
    }

    #[test]
    fn installing_twice_changes_nothing_and_removing_restores_the_file() {
        let original = "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"lint.sh\"}]}\n    ]\n  },\n  \"env\": {\"A\":  \"1\"}\n}\n";
        let installed_doc = install(original, Path::new(EXE)).unwrap().unwrap();
        assert!(installed_doc.contains("{\"matcher\": \"Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"lint.sh\"}]}"));
        assert!(installed_doc.contains("\"env\": {\"A\":  \"1\"}"));
        assert_eq!(install(&installed_doc, Path::new(EXE)).unwrap(), None);
        let found = installed(&installed_doc).unwrap();
        assert_eq!(found.len(), 4, "{found:?}");
        let value: Value = serde_json::from_str(&installed_doc).unwrap();
        assert_eq!(value["hooks"]["PreToolUse"].as_array().unwrap().len(), 2);
        assert_eq!(value["hooks"]["PostToolUse"][0]["matcher"], "Read|Bash");
        assert_eq!(remove(&installed_doc).unwrap().unwrap(), original);
        assert_eq!(remove(original).unwrap(), None);
    }

    #[test]
    fn a_file_without_hooks_round_trips_and_another_scout_is_replaced() {
        let original = "{\n    \"theme\": \"dark\"\n}";
        let doc = install(original, Path::new(EXE)).unwrap().unwrap();
        assert!(
            doc.starts_with(
                "{\n    \"theme\": \"dark\",\n    \"hooks\": {\n        \"PreToolUse\": [\n"
            ),
            "{doc}"
        );
        assert_eq!(remove(&doc).unwrap().unwrap(), original);
        let moved = install(&doc, Path::new("/new/scout")).unwrap().unwrap();
        let found = installed(&moved).unwrap();
        assert!(
            found.iter().all(|(_, exe)| exe == Path::new("/new/scout")),
            "{found:?}"
        );
        assert_eq!(found.len(), 4);
        let fresh = install("", Path::new(EXE)).unwrap().unwrap();
        assert_eq!(installed(&fresh).unwrap().len(), 4);
    }

    #[test]
    fn broken_settings_are_refused() {
        let e = install("{\n  \"a\": 1,\n}", Path::new(EXE))
            .unwrap_err()
            .to_string();
        // The comma itself, where serde_json named the brace after it.
        assert!(
            e.contains("line 2, column 9 (trailing commas are not allowed)"),
            "{e}"
        );
        assert!(install("[1]", Path::new(EXE)).is_err());
        assert!(install("{\"hooks\": []}", Path::new(EXE)).is_err());
    }
}
