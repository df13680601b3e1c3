//! What a command reads of the world beyond its flags: its environment,
//! the agent session whose memory it uses, and what stops its rg. The
//! command line takes them from the process ([`Context::process`]); a
//! request served inside `scout mcp` brings its own, so that no call reads
//! or changes another's.
//!
//! The working directory is not here but on the thread that runs the
//! command: every path rg prints is relative to the directory it runs
//! in, and scout opens those paths as they are. A served request's thread
//! takes its own ([`crate::paths::work_in`]); the process's never moves.

use crate::dirs::OsEnvLookup;
use crate::render::style::{Color, ColorChoice};
use crate::rg::Cancel;
use crate::search::settings::SessionFrom;

/// A command's context. Each `resolve` reads the environment through
/// it. Two readers still take the process's: the session of
/// [`SessionFrom::Process`] (a command line's own, where the two agree)
/// and smart's remembered listing, which watches the configuration files
/// of the rg it runs (rg inherits the process's environment).
pub struct Context<'a> {
    /// The environment (`SCOUT_RG`, `PATH`, the XDG directories,
    /// `NO_COLOR`, ...).
    pub env: OsEnvLookup<'a>,
    /// Where the agent session comes from.
    pub session: SessionFrom,
    /// What stops the command's rg, when it can be cancelled.
    pub cancel: Option<Cancel>,
}

impl Context<'static> {
    /// The process's own: its environment and session, nothing to cancel.
    pub fn process() -> Context<'static> {
        Context {
            env: &crate::dirs::process_env,
            session: SessionFrom::Process,
            cancel: None,
        }
    }
}

impl Context<'_> {
    /// The variable `name` as text, when it is set and valid UTF-8.
    pub fn var(&self, name: &str) -> Option<String> {
        (self.env)(name).and_then(|v| v.into_string().ok())
    }

    /// `--color`'s `choice` for the process's stdout, in this context's
    /// environment (`NO_COLOR`, `TERM`, ...).
    pub fn color(&self, choice: ColorChoice) -> Color {
        use std::io::IsTerminal;
        Color::resolve(choice, std::io::stdout().is_terminal(), &|name| {
            self.var(name)
        })
    }

    /// rg as this context finds and runs it.
    pub fn rg(&self) -> Result<crate::rg::Rg, crate::rg::RgError> {
        let mut rg = crate::rg::Rg::in_env(self.env)?;
        rg.cancel = self.cancel.clone();
        Ok(rg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{parse, Command};
    use crate::search::settings::SearchSettings;
    use std::ffi::OsString;

    fn search(argv: &[&str], ctx: &Context) -> anyhow::Result<SearchSettings> {
        let argv: Vec<OsString> = argv.iter().map(OsString::from).collect();
        match parse(&argv).unwrap().command {
            Some(Command::Search(args)) => SearchSettings::resolve_in(args, &argv, ctx),
            other => panic!("{other:?}"),
        }
    }

    /// A request's environment is its context's, whatever the process's
    /// holds: the rg it runs, where its cache is, what stops its rg.
    #[test]
    fn resolution_reads_the_contexts_environment_not_the_processs() {
        let env = |name: &str| match name {
            "PATH" => std::env::var_os("PATH"),
            "XDG_CACHE_HOME" => Some("/ctx/cache".into()),
            "SCOUT_RG_OUTPUT" => Some("json".into()),
            _ => None,
        };
        let cancel = Cancel::default();
        let ctx = Context {
            env: &env,
            session: SessionFrom::Given(None),
            cancel: Some(cancel.clone()),
        };
        let settings = search(&["scout", "search", "x"], &ctx).unwrap();
        assert_eq!(settings.cache_dir, Some("/ctx/cache/scout".into()));
        assert!(
            !settings.plain_records,
            "SCOUT_RG_OUTPUT=json is the context's"
        );
        assert!(settings.session.is_none());
        cancel.cancel();
        assert!(settings.rg.cancelled(), "the context's cancel stops its rg");

        let missing = |name: &str| (name == "SCOUT_RG").then(|| OsString::from("/nonexistent/rg"));
        let ctx = Context {
            env: &missing,
            session: SessionFrom::Given(None),
            cancel: None,
        };
        let refused = search(&["scout", "search", "x"], &ctx).err().unwrap();
        assert!(
            refused.to_string().contains("SCOUT_RG=/nonexistent/rg"),
            "{refused}"
        );
    }
}
