//! `scout edit`'s flags, and from them to its [`EditSettings`].
//!
//! A structural edit resolves through the search's own settings
//! ([`SearchSettings`]), so that it walks, matches and scopes exactly as
//! `scout search --structural` does.

use clap::Args;
use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::{bail, Result};

use super::{
    ColorArgs, Context, FilterArgs, OutputArgs, SearchArgs, SessionArgs,
    DEFAULT_SEARCH_BUDGET_TOKENS,
};
use crate::edit::settings::{Count, EditSettings, Fault, Mode, Pair, Source, FAULT_VAR};
use crate::search::settings::SearchSettings;
use crate::shell;
use crate::structural::rewrite::Template;

pub(super) const EDIT_EXAMPLES: &str = "\
Examples:
  scout edit --structural --lang rust '$X.unwrap()' --rewrite '$X?' src
  scout edit --structural --lang py 'load($A)' --rewrite 'load($A, strict=True)' --callers-of src/config.py#load
  scout edit --structural --lang ts 'console.log($$$A)' -r 'logger.debug($$$A)' --dry-run
  scout edit --old 'max_retries = 3' --new 'max_retries = 5' src/settings.py
  scout edit --old 'OldName' --new 'NewName' --all src/a.rs src/b.rs
  scout edit src/config.py#load --with new_load.py        one whole definition
  scout edit --undo                                       the last edit, undone

Every file's new bytes are computed and parsed before the first is written: a
rewrite that adds a parse error is refused (nothing written), and so are
read-only files, files outside the working directory and binary files. Each
file is replaced by renaming a complete copy, after an undo journal is saved
in the state directory ($XDG_STATE_HOME/scout/edits/); a file changed while
the edit ran is never overwritten. The report is a page: exact counters, the
changed lines as -OLD / +NEW under their file and definition, the budget and
what it left out.

Quote patterns and templates in single quotes, or the shell replaces $X.

Exit status: 0 written (or, with --dry-run, would be), 1 nothing matched
(nothing written), 2 refused (nothing written).";

/// `scout edit`: which edit, on which files, and how its report is shown.
#[derive(Debug, PartialEq, Args)]
pub struct EditArgs {
    /// With --structural: PATTERN (one that starts with '-' and is not a flag of scout edit is the pattern too), then the PATHs to walk [default: .]. With --with: PATH#SYMBOL (or PATH:LINE). With --old/--new: the FILEs.
    #[arg(value_name = "ARGS")]
    pub args: Vec<OsString>,

    /// The structural pattern, as rg's -e takes a pattern; every positional is then a PATH.
    #[arg(
        short = 'e',
        long = "regexp",
        value_name = "PATTERN",
        allow_hyphen_values = true
    )]
    pub regexp: Option<String>,

    /// Match PATTERN as code, an ast-grep pattern of the --lang language ($X one node, $$$X any number), and replace each match by --rewrite.
    #[arg(long)]
    pub structural: bool,

    /// With --structural, the pattern's language: rust (rs), python (py), javascript (js), typescript (ts), tsx, go, ruby (rb), java, kotlin (kt), csharp (cs), c, cpp (c++), php, lua, luau, swift, scala, elixir (ex), haskell (hs), zig, bash (sh), dart.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,

    /// What each match becomes: code with the pattern's $X and $$$X filled in, as ast-grep's --rewrite does (a multi-line template takes the match's indentation).
    #[arg(short = 'r', long, value_name = "TEMPLATE", allow_hyphen_values = true)]
    pub rewrite: Option<String>,

    /// Rewrite only the matches on calls the code graph attributes to this definition (PATH#SYMBOL or PATH:LINE): exactly the lines `scout search --callers-of` shows.
    #[arg(long, value_name = "PATH#SYMBOL")]
    pub callers_of: Option<String>,

    /// Rewrite only the matches in code that depends on this definition (its callers, to --depth levels).
    #[arg(long, value_name = "PATH#SYMBOL")]
    pub impact: Option<String>,

    /// With --impact, how many levels of callers to follow [default: 2].
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,

    /// With --callers-of or --impact: rewrite only the calls the graph proves (by scope, import or declared type), not those it attributes by a name alone; the page lists the calls it left.
    #[arg(long)]
    pub proven_only: bool,

    /// Exact text to replace in the FILEs (bytes, not a pattern); repeatable, each with its --new, applied in order.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub old: Vec<OsString>,

    /// What the --old before it becomes.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub new: Vec<OsString>,

    /// With --old: each pair must match exactly N times in each file [default: exactly once].
    #[arg(long, value_name = "N")]
    pub count: Option<usize>,

    /// With --old: replace every occurrence, however many.
    #[arg(long)]
    pub all: bool,

    /// Replace the whole definition PATH#SYMBOL by the code in FILE ('-': standard input), re-indented to where it stands; the comments, decorators and attributes above it stay unless the new code brings its own.
    #[arg(long = "with", value_name = "FILE")]
    pub with: Option<OsString>,

    /// Restore the files of the last edit (of this agent session, else of this directory) to their bytes before it; a file changed since is refused, by name.
    #[arg(long)]
    pub undo: bool,

    /// Show the report of the last edit again (its other pages, with --page).
    #[arg(long)]
    pub last: bool,

    /// Write nothing: print what would be written.
    #[arg(long)]
    pub dry_run: bool,

    /// Include or, with a leading '!', exclude files matching GLOB (rg semantics); repeatable.
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,

    /// Only files of rg's type NAME (`rg --type-list`); repeatable.
    #[arg(short = 't', long = "type", value_name = "NAME")]
    pub types: Vec<String>,

    /// Walk hidden files and directories too.
    #[arg(long)]
    pub hidden: bool,

    /// Token budget of the report's page, estimated as bytes / 4; 0 means no limit.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SEARCH_BUDGET_TOKENS)]
    pub budget_tokens: u64,

    /// Which page of the report to show (1-based).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub page: usize,

    /// Print one JSON document with every change instead of the page.
    #[arg(long)]
    pub json: bool,
}

impl EditSettings {
    /// Validates `args`; `argv` is the whole command line.
    pub fn resolve(args: EditArgs, argv: &[OsString]) -> Result<EditSettings> {
        Self::resolve_with(args, argv, None, &Context::process())
    }

    /// [`EditSettings::resolve`] in the context `ctx`, the definition's
    /// new code given whole (`with_text`) instead of named by `--with`.
    pub fn resolve_with(
        mut args: EditArgs,
        argv: &[OsString],
        with_text: Option<String>,
        ctx: &Context,
    ) -> Result<EditSettings> {
        if args.page == 0 {
            bail!("--page starts at 1");
        }
        let mode = mode(&mut args, argv, with_text, ctx)?;
        // A structural edit's search has read the session already.
        let session = match &mode {
            Mode::Structural { search, .. } => search.session.clone(),
            _ => ctx.session.session(),
        };
        Ok(EditSettings {
            mode,
            dry_run: args.dry_run,
            budget_bytes: crate::page::budget_bytes(args.budget_tokens),
            page: args.page,
            json: args.json,
            cwd: std::env::current_dir()?,
            session,
            state_dir: crate::dirs::state_dir_in(ctx.env),
            cache_dir: crate::dirs::cache_dir_in(ctx.env),
            command: shell::join(
                shell::words_without_any(argv, &["--page", "--color"])
                    .into_iter()
                    .filter(|w| *w != b"--json"),
            ),
            last_command: match args.budget_tokens {
                crate::cli::DEFAULT_SEARCH_BUDGET_TOKENS => "scout edit --last".to_string(),
                tokens => format!("scout edit --last --budget-tokens {tokens}"),
            },
            fault: ctx
                .var(FAULT_VAR)
                .map(|v| Fault::parse(&v))
                .unwrap_or_default(),
        })
    }
}

/// Which edit the flags ask for, each checked for what it needs.
fn mode(
    args: &mut EditArgs,
    argv: &[OsString],
    with_text: Option<String>,
    ctx: &Context,
) -> Result<Mode> {
    relations(args, with_text.is_some())?;
    if args.proven_only && args.callers_of.is_none() && args.impact.is_none() {
        bail!("--proven-only goes with --callers-of or --impact (it leaves out the calls the code graph attributes by name alone)");
    }
    if args.undo {
        ensure_no_positionals(args, "--undo")?;
        return Ok(Mode::Undo);
    }
    if args.last {
        ensure_no_positionals(args, "--last")?;
        return Ok(Mode::Last);
    }
    if args.with.is_some() || with_text.is_some() {
        let spec = match args.args.as_slice() {
            [one] => one.to_string_lossy().into_owned(),
            [] => bail!("--with needs the definition to replace: scout edit PATH#SYMBOL --with FILE"),
            _ => bail!("--with replaces one definition: give one PATH#SYMBOL (or PATH:LINE), then --with FILE"),
        };
        let spec = crate::graph::SymbolSpec::parse(&spec)?;
        let source = match (with_text, args.with.take()) {
            (Some(text), _) => Source::Text(text),
            (None, Some(file)) if file == "-" => Source::Stdin,
            (None, Some(file)) => Source::File(PathBuf::from(file)),
            (None, None) => unreachable!("checked above"),
        };
        let rg = ctx.rg()?;
        return Ok(Mode::Definition { spec, source, rg });
    }
    if !args.old.is_empty() || !args.new.is_empty() {
        if args.old.len() != args.new.len() {
            bail!(
                "--old and --new go in pairs: {} --old and {} --new given",
                args.old.len(),
                args.new.len()
            );
        }
        if args.old.iter().any(|o| o.is_empty()) {
            bail!("--old is empty: give the exact text to replace");
        }
        if args.args.is_empty() {
            bail!(
                "--old/--new needs the FILEs to change: scout edit --old TEXT --new TEXT FILE..."
            );
        }
        let pairs = args
            .old
            .iter()
            .zip(&args.new)
            .map(|(old, new)| Pair {
                old: old.as_encoded_bytes().to_vec(),
                new: new.as_encoded_bytes().to_vec(),
            })
            .collect();
        let count = match (args.count, args.all) {
            (Some(0), _) => bail!("--count starts at 1 (a pair that is not to match is no edit)"),
            (Some(n), _) => Count::Exactly(n),
            (None, true) => Count::Any,
            (None, false) => Count::Exactly(1),
        };
        return Ok(Mode::Text {
            pairs,
            count,
            files: std::mem::take(&mut args.args),
        });
    }
    if args.structural {
        return structural(args, argv, ctx);
    }
    bail!(
        "say which edit: --structural --lang LANG PATTERN --rewrite TEMPLATE, --old TEXT --new TEXT FILE..., PATH#SYMBOL --with FILE, or --undo (scout edit --help)"
    )
}

/// Which flags go with which, and which ask for different edits.
/// `with_text`: the definition's new code was given whole, as `--with`
/// names a file of it.
fn relations(args: &EditArgs, with_text: bool) -> Result<()> {
    use super::{apart, goes_with};
    let structural = args.structural;
    let old = !args.old.is_empty();
    let with = args.with.is_some() || with_text;
    let scoped = args.callers_of.is_some() || args.impact.is_some();
    apart(
        args.callers_of.is_some(),
        "--callers-of",
        args.impact.is_some(),
        "--impact",
    )?;
    for (given, flag) in [
        (args.undo, "--undo"),
        (args.last, "--last"),
        (with, "--with"),
        (old, "--old"),
    ] {
        apart(given, flag, structural, "--structural")?;
    }
    for (given, flag) in [(args.undo, "--undo"), (args.last, "--last"), (old, "--old")] {
        apart(given, flag, with, "--with")?;
    }
    for (given, flag) in [(args.undo, "--undo"), (args.last, "--last")] {
        apart(given, flag, old, "--old")?;
    }
    apart(args.undo, "--undo", args.last, "--last")?;
    apart(args.undo, "--undo", args.dry_run, "--dry-run")?;
    goes_with(
        args.rewrite.is_some(),
        "--rewrite",
        structural,
        "--structural",
    )?;
    goes_with(
        scoped,
        if args.impact.is_some() {
            "--impact"
        } else {
            "--callers-of"
        },
        structural,
        "--structural",
    )?;
    goes_with(
        args.depth.is_some(),
        "--depth",
        args.impact.is_some(),
        "--impact",
    )?;
    goes_with(!args.new.is_empty(), "--new", old, "--old")?;
    apart(args.count.is_some(), "--count", args.all, "--all")?;
    goes_with(args.count.is_some(), "--count", old, "--old")?;
    goes_with(args.all, "--all", old, "--old")?;
    if structural && args.rewrite.is_none() {
        bail!("--structural needs --rewrite TEMPLATE: what each match becomes");
    }
    Ok(())
}

fn ensure_no_positionals(args: &EditArgs, flag: &str) -> Result<()> {
    if let Some(first) = args.args.first() {
        bail!(
            "{flag} takes no PATTERN, PATH or FILE ({} given)",
            shell::quote(first.as_encoded_bytes())
        );
    }
    Ok(())
}

/// A structural edit: its search resolved as `scout search --structural`
/// with the same pattern, language, file selection and graph scope.
fn structural(args: &mut EditArgs, argv: &[OsString], ctx: &Context) -> Result<Mode> {
    let mut positionals = std::mem::take(&mut args.args).into_iter();
    let pattern = match args.regexp.take() {
        Some(pattern) => pattern,
        None => match positionals.next() {
            Some(first) => first.into_string().map_err(|_| {
                anyhow::anyhow!("the pattern is not UTF-8; a structural pattern is code")
            })?,
            None => bail!("--structural needs a PATTERN: scout edit --structural --lang LANG 'PATTERN' --rewrite 'TEMPLATE'"),
        },
    };
    let scoped = args.callers_of.is_some() || args.impact.is_some();
    let search_args = SearchArgs {
        paths: positionals.collect(),
        regexp: Some(pattern),
        structural: true,
        callers_of: args.callers_of.take(),
        impact: args.impact.take(),
        depth: args.depth,
        // An edit changes every call or none: it reads every file.
        graph_files: scoped.then_some(0),
        proven_only: args.proven_only,
        filter: FilterArgs {
            globs: std::mem::take(&mut args.globs),
            types: std::mem::take(&mut args.types),
            langs: args.lang.take().into_iter().collect(),
            hidden: args.hidden,
        },
        output: OutputArgs {
            budget_tokens: 0,
            ..OutputArgs::default()
        },
        session: SessionArgs {
            again: true,
            ..SessionArgs::default()
        },
        color: ColorArgs {
            color: crate::render::style::ColorChoice::Never,
        },
        ..SearchArgs::default()
    };
    let search = SearchSettings::resolve_in(search_args, argv, ctx)?;
    let pattern = search
        .structural
        .as_ref()
        .expect("a structural search compiles its pattern");
    let text = args.rewrite.take().unwrap_or_default();
    let template =
        Template::compile(&text, pattern).map_err(|e| anyhow::anyhow!("--rewrite: {e}"))?;
    Ok(Mode::Structural {
        search: Box::new(search),
        template,
    })
}
