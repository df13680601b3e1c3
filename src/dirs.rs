//! Where scout keeps its optional, disposable files: the cache directory
//! (`$XDG_CACHE_HOME/scout`, else `~/.cache/scout`) and the state
//! directory (`$XDG_STATE_HOME/scout`, else `~/.local/state/scout`);
//! where the optional sentence encoder's weights are
//! (`$XDG_DATA_HOME/scout/encoder`, else `~/.local/share/scout/encoder`);
//! and where it reads its one configuration file, the hook rules
//! (`$XDG_CONFIG_HOME/scout`, else `~/.config/scout`).
//!
//! This module only names the directories, from environment values given
//! to it; it creates nothing. What goes inside belongs to the modules that
//! write there (`defs::cache` for definitions, the session memory for the
//! state directory), and `doctor` reports whether they are writable.

use std::ffi::OsString;
use std::path::PathBuf;

/// Reads one environment variable as raw bytes (`None` when unset).
/// Directories are resolved through this, so tests can pass their own.
pub type OsEnvLookup<'a> = &'a dyn Fn(&str) -> Option<OsString>;

/// The process environment, as an [`OsEnvLookup`].
pub fn process_env(name: &str) -> Option<OsString> {
    std::env::var_os(name)
}

/// `$XDG_CACHE_HOME/scout` (`~/.cache/scout`), from the process environment.
pub fn cache_dir() -> Option<PathBuf> {
    cache_dir_in(&process_env)
}

/// `$XDG_STATE_HOME/scout` (`~/.local/state/scout`), from the process
/// environment.
pub fn state_dir() -> Option<PathBuf> {
    state_dir_in(&process_env)
}

/// `$XDG_CONFIG_HOME/scout` (`~/.config/scout`), from the process
/// environment.
pub fn config_dir() -> Option<PathBuf> {
    config_dir_in(&process_env)
}

/// Where the sentence encoder's files are (`scout smart`'s meaning
/// search): `$SCOUT_ENCODER_DIR`, else `$XDG_DATA_HOME/scout/encoder`
/// (`~/.local/share/scout/encoder`), from `env`; `None` when none of
/// these is set to a non-empty value.
pub fn encoder_dir_in(env: OsEnvLookup<'_>) -> Option<PathBuf> {
    env(ENCODER_DIR_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| xdg(env, "XDG_DATA_HOME", ".local/share").map(|d| d.join("encoder")))
}

/// The variable that names the encoder's directory, overriding the data
/// directory's.
pub const ENCODER_DIR_ENV: &str = "SCOUT_ENCODER_DIR";

/// `$XDG_CONFIG_HOME/scout` (`$HOME/.config/scout`), from `env`; `None`
/// when neither variable is set to a non-empty value.
pub fn config_dir_in(env: OsEnvLookup<'_>) -> Option<PathBuf> {
    xdg(env, "XDG_CONFIG_HOME", ".config")
}

/// `$XDG_CACHE_HOME/scout` (`$HOME/.cache/scout`), from `env`; `None` when
/// neither variable is set to a non-empty value.
pub fn cache_dir_in(env: OsEnvLookup<'_>) -> Option<PathBuf> {
    xdg(env, "XDG_CACHE_HOME", ".cache")
}

/// `$XDG_STATE_HOME/scout` (`$HOME/.local/state/scout`), from `env`;
/// `None` when neither variable is set to a non-empty value.
pub fn state_dir_in(env: OsEnvLookup<'_>) -> Option<PathBuf> {
    xdg(env, "XDG_STATE_HOME", ".local/state")
}

/// `$var/scout`, else `$HOME/fallback/scout`. Empty values count as unset,
/// as the XDG base directory specification says.
fn xdg(env: OsEnvLookup<'_>, var: &str, fallback: &str) -> Option<PathBuf> {
    let set = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    set(var)
        .or_else(|| set("HOME").map(|home| home.join(fallback)))
        .map(|base| base.join("scout"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn xdg_variables_win_over_home() {
        let env = env_of(&[
            ("HOME", "/h"),
            ("XDG_CACHE_HOME", "/c"),
            ("XDG_STATE_HOME", "/s"),
        ]);
        assert_eq!(cache_dir_in(&env), Some(PathBuf::from("/c/scout")));
        assert_eq!(state_dir_in(&env), Some(PathBuf::from("/s/scout")));
        let env = env_of(&[("HOME", "/h"), ("XDG_CONFIG_HOME", "/k")]);
        assert_eq!(config_dir_in(&env), Some(PathBuf::from("/k/scout")));
        let env = env_of(&[("HOME", "/h")]);
        assert_eq!(config_dir_in(&env), Some(PathBuf::from("/h/.config/scout")));
    }

    #[test]
    fn home_is_the_fallback_and_empty_values_are_unset() {
        let env = env_of(&[("HOME", "/h"), ("XDG_CACHE_HOME", "")]);
        assert_eq!(cache_dir_in(&env), Some(PathBuf::from("/h/.cache/scout")));
        assert_eq!(
            state_dir_in(&env),
            Some(PathBuf::from("/h/.local/state/scout"))
        );
        assert_eq!(
            encoder_dir_in(&env),
            Some(PathBuf::from("/h/.local/share/scout/encoder"))
        );
        let env = env_of(&[("HOME", "/h"), ("SCOUT_ENCODER_DIR", "/e")]);
        assert_eq!(encoder_dir_in(&env), Some(PathBuf::from("/e")));
        let none = env_of(&[("HOME", "")]);
        assert_eq!(cache_dir_in(&none), None);
        assert_eq!(state_dir_in(&none), None);
    }
}
