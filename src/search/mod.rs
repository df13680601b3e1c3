//! `scout search`, the ranked view: one pipeline, one stage per module,
//! each a function from a typed input to a typed output.
//!
//! 1. **plan** ([`query`]; the other flags are resolved into [`settings`]
//!    by the command line's layer or a request):
//!    the query's kind, its anchor, the name it defines, rg's flags;
//! 2. **collect** ([`collect`]): run rg and [`fold`] its records (or its
//!    `--json` events) into per-file tallies with exact counts and a
//!    bounded set of candidate lines; the multi-word fallback; beside
//!    it, a qualified name's definitions that no match holds
//!    ([`qualified`]);
//! 3. **rank** ([`mod@rank`]): integer scores, no I/O;
//! 4. **lay out** ([`layout`], over [`crate::page`]): every page cut from the
//!    ranked order within the budget, before anything is parsed;
//! 5. **refine** ([`refine`]): the parser's definitions for the shown
//!    page overrule the lexical rules and reorder its files; [`verify`]
//!    drops quotes of files that changed since rg read them (and, in
//!    stage 8, rg's own lines of such files, if those are printed);
//! 6. **remember** ([`remember`]): what the session was already shown of
//!    those files collapses; then the page is trimmed back within budget
//!    ([`layout::fit`]) now that its headings ([`crate::page::group`]) are known;
//! 7. **attach** ([`attach`]): the code of at most two short definitions
//!    holding every match;
//! 8. **render** ([`crate::render`]): text, JSON, or rg's own lines when
//!    they are smaller (I2); then what was shown is recorded.
//!
//! A structural search (`--structural`) replaces stage 2 with
//! [`structural`]: the files rg lists, parsed once each, their ast-grep
//! matches folded into the same tallies; stages 3 to 8 are the same
//! functions ([`present`]).
//!
//! A pattern with no literal anchor skips all of it: [`passthrough`].
//! The invariants of docs/design.md hold at the end: passthrough for patterns
//! without an anchor (I1), never larger than plain `rg -n` (I2), rg's
//! exact counts (I3), byte-identical quotes (I4), deterministic output
//! (I5), everything accounted for (I6).

pub mod attach;
pub mod callers;
pub mod collect;
pub mod fold;
pub mod layout;
pub mod passthrough;
pub mod qualified;
pub mod query;
pub mod rank;
pub mod refine;
pub mod remember;
pub mod settings;
pub mod structural;
pub mod verify;

use std::collections::BTreeMap;
use std::io::Write;
use std::time::{Instant, SystemTime};

use anyhow::{Context, Result};

use crate::defs::Def;
use crate::exit::ExitStatus;
use crate::page::call::ToolCall;
use crate::page::query::Query;
use crate::page::tally::{FileTally, Plain, Ranked};
use crate::page::{omitted, PageSpan};
use crate::render::{self, Report};
use crate::rg::{run_plain, Flow, Matcher, SearchFlags};
use crate::search::collect::Collected;
use crate::search::fold::Fold;
use crate::search::rank::{rank, Scorer};
use crate::search::remember::Recalled;
use crate::search::settings::SearchSettings;
use crate::session::Shown;

/// Runs one search, from the planned query to the page on `out`;
/// warnings go to `err`. `started` is when the command started (the
/// header's milliseconds).
pub fn search(
    settings: &SearchSettings,
    started: Instant,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    if let Some(request) = &settings.graph {
        graph_search(settings, request, started, out, err)
    } else if let Some(pattern) = &settings.structural {
        structural_search(settings, pattern, started, out, err)
    } else if settings.query.is_passthrough()
        && !settings.json
        && !settings.files_only
        && settings.page == 1
    {
        // rg's own lines (I1); `-l` and a later page are the ranked
        // pages' files and pages, as the JSON has them.
        passthrough::passthrough(settings, out, err)
    } else {
        ranked(settings, started, out, err)
    }
}

/// The ranked pipeline: rg's pass collected, then the shared stages.
fn ranked(
    settings: &SearchSettings,
    started: Instant,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let scorer = Scorer::new(&settings.query);
    // Filesystems stamp files with a coarser clock than SystemTime::now()
    // (ext4: the kernel's tick), so an edit just after this moment can carry
    // an mtime just before it: files touched shortly before count too.
    let since = SystemTime::now() - verify::CLOCK_SLACK;
    // A qualified name's definitions are looked for beside rg's pass.
    let qualified = qualified::asked(settings);
    let (collected, definitions) = std::thread::scope(|scope| {
        let definitions = qualified
            .as_ref()
            .map(|name| scope.spawn(|| qualified::definitions(settings, name)));
        let collected = collect::collect(settings, &scorer, err);
        let definitions = definitions.map(|thread| {
            thread
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
        (collected, definitions)
    });
    let Collected {
        fold: Fold { files, plain, .. },
        flags,
        fallback,
        partial,
    } = collected?;
    if settings.rg.cancelled() {
        anyhow::bail!("cancelled");
    }
    let definitions = definitions.transpose()?.unwrap_or_default();
    let (repro, mut file_command) = repro_commands(&flags);
    // Over MCP, a file's lines are a grep call. The repro stays rg's
    // command: the grep tool also searches hidden files, so over a tree
    // its counts could differ from the page's.
    if let Some(grep) = settings.tool.as_ref().and_then(|_| grep_file_call(&flags)) {
        file_command = grep.text();
    }
    let tallied = Tallied {
        fallback,
        partial,
        definitions,
        rg: Some((&flags, plain)),
        ..Tallied::new(files, (repro, file_command), since)
    };
    present(settings, &scorer, tallied, started, out, err)
}

/// `--callers-of` and `--impact`: the code graph's attributed lines,
/// matched by the pattern ([`callers`]), then the same stages as a text
/// search; the scope is said after the matches.
fn graph_search(
    settings: &SearchSettings,
    request: &settings::GraphRequest,
    started: Instant,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let scorer = Scorer::new(&settings.query);
    let since = SystemTime::now() - verify::CLOCK_SLACK;
    let graphed = callers::gather(settings, request, err)?;
    let repros = callers::repro_commands(settings, request);
    let tallied = Tallied {
        defs: graphed.defs,
        structural: graphed.structural,
        scope: Some(graphed.scope),
        ..Tallied::new(graphed.files, repros, since)
    };
    present(settings, &scorer, tallied, started, out, err)
}

/// The structural pipeline (`--structural`): the files of the pattern's
/// language parsed and matched ([`structural`]), then the same stages as
/// a text search.
fn structural_search(
    settings: &SearchSettings,
    pattern: &crate::structural::StructuralPattern,
    started: Instant,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let scorer = Scorer::new(&settings.query);
    let since = SystemTime::now() - verify::CLOCK_SLACK;
    let gathered = structural::gather(settings, pattern, err)?;
    if gathered.files.is_empty() && crate::structural::pattern::looks_shell_eaten(&pattern.text) {
        writeln!(
            err,
            "scout: hint: no match; if the shell replaced $NAME in the pattern, quote it in single quotes: '$X.unwrap()'"
        )?;
    }
    let repros = structural::repro_commands(settings, pattern);
    let tallied = Tallied {
        partial: gathered.partial,
        defs: gathered.defs,
        structural: Some(render::Structural {
            lang: pattern.lang(),
            parsed: gathered.parsed,
        }),
        ..Tallied::new(gathered.files, repros, since)
    };
    present(settings, &scorer, tallied, started, out, err)
}

/// What stage 2 (rg's [`collect`], or [`structural::gather`]) hands the
/// stages after it.
pub struct Tallied<'f> {
    /// Files with matches, in any order.
    pub files: Vec<FileTally>,
    /// The any-word fallback's sentence, when it ran, or what the text
    /// finds as written when `--kind auto` read it as a regex.
    pub fallback: Option<String>,
    /// Set when not everything could be searched (exit 3).
    pub partial: Option<ExitStatus>,
    /// The command with the same counts, and the one for one `FILE`.
    pub repro: String,
    pub file_command: String,
    /// For a text search: rg's flags (to mark matches in colour, and to
    /// print rg's own lines) and those lines, when smaller than the page
    /// (I2). `None`: there are no rg lines to print instead.
    pub rg: Option<(&'f SearchFlags, Plain)>,
    /// Definitions already parsed, by path: [`refine`] uses them instead
    /// of parsing again.
    pub defs: BTreeMap<Vec<u8>, Vec<Def>>,
    /// Set for a structural search.
    pub structural: Option<render::Structural>,
    /// The definitions a qualified name names that no match holds
    /// ([`qualified`]), shown before the matches.
    pub definitions: Vec<render::Code>,
    /// Set for `--callers-of` and `--impact`: what the graph made of the
    /// calls of the name.
    pub scope: Option<crate::graph::Scope>,
    /// When the search started, less [`verify::CLOCK_SLACK`]: a shown
    /// file modified since is read again.
    pub since: SystemTime,
}

impl<'f> Tallied<'f> {
    /// The files a pipeline tallied, with the commands that reproduce
    /// its counts (the whole search's, one file's); nothing else set.
    fn new(files: Vec<FileTally>, repros: (String, String), since: SystemTime) -> Tallied<'f> {
        let (repro, file_command) = repros;
        Tallied {
            files,
            fallback: None,
            partial: None,
            repro,
            file_command,
            rg: None,
            defs: BTreeMap::new(),
            structural: None,
            definitions: Vec::new(),
            scope: None,
            since,
        }
    }
}

/// Stages 3 to 8 (see the module doc), the same for every view that
/// tallies files: rank, lay out, refine, remember, attach, render.
///
/// Once per process: it leaves its tallies, pages and definitions to the
/// process's exit instead of freeing them.
pub fn present(
    settings: &SearchSettings,
    scorer: &Scorer,
    tallied: Tallied<'_>,
    started: Instant,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let Tallied {
        files,
        fallback,
        partial,
        repro,
        file_command,
        rg,
        defs: known,
        structural,
        definitions,
        scope,
        since,
    } = tallied;
    let scope_text = scope.as_ref().map(render::scope::text).unwrap_or_default();
    let (hits, matches) = totals(&files);
    let mut ranked = rank(scorer, files);
    let fallback = match fallback {
        Some(sentence) if !settings.query.words.is_empty() => {
            Some(smart_fallback(settings, &mut ranked, sentence, err))
        }
        other => other,
    };
    // What every page prints besides its files, for the budget's reserve;
    // `command` is the base of its next-page command.
    let frame_of = || render::text::Frame {
        query: &settings.query.text,
        fallback: fallback.as_deref(),
        repro: &repro,
        room: settings.footer_room(),
        note_room: settings.note_room(),
        def_paths: ranked
            .iter()
            .filter(|r| r.tally.def_lines > 0)
            .map(|r| &r.tally.path[..])
            .collect(),
        structural: structural.is_some(),
        scope: &scope_text,
        definitions: &definitions,
    };
    // The frame weighs each footer command at the search's footer room,
    // so a page re-run with `--again` (to see what the memory collapsed),
    // or asked on another surface, holds the same files.
    let frame = frame_of();
    let index = settings.page - 1;
    let (mut pages, mut held) = if settings.files_only {
        layout::paginate_listing(settings, &ranked, &frame)?
    } else {
        (layout::paginate(settings, &ranked, &frame)?, Vec::new())
    };
    let enough = layout::budget_for_a_line(settings, &ranked, &pages[index], &frame);
    drop(frame);
    let memory = remember::load(settings, err)?;
    let searched = rg.as_ref().map(|(flags, _)| *flags);
    let refined = match held.get_mut(index) {
        Some(held) => refine::refine_listing(
            settings,
            &mut ranked,
            &mut pages[index],
            held,
            &known,
            searched,
        ),
        None => refine::refine(settings, &mut ranked, &mut pages[index], &known, searched),
    };
    let changed = verify::verify_page(since, &mut ranked, &mut pages[index], &refined.modified);
    let defs = refined.defs;
    let recalled = Recalled::new(settings, &ranked, &pages[index], &memory);
    let parts = Parts {
        query: &settings.query,
        fallback,
        hits,
        matches,
        ranked: &ranked,
        repro,
        file_command,
        defs: &defs,
        structural,
        definitions: &definitions,
        scope: scope.as_ref(),
        scope_text: &scope_text,
    };
    let fitted = layout::fit(settings, &parts, &mut pages, index, started);
    layout::ensure_a_line_shown(settings, &pages[index], enough)?;
    let seen = recalled.seen(&ranked, &pages[index]);
    let mut report = parts.report(settings, started, &pages, index, seen);
    let bare = fitted.map(|(page, elapsed_ms)| {
        report.elapsed_ms = elapsed_ms;
        page
    });
    // The page is shown as the memory collapses it; whether it or rg's
    // lines are printed is decided on its weight without the memory:
    // collapsing what the session saw must not turn rg's lines into a
    // page (nor `--again` the other way).
    let (page, unremembered_len) = if report.already_shown() > 0 {
        let bare = bare.unwrap_or_else(|| {
            render::text::page(&parts.report(settings, started, &pages, index, Vec::new()))
        });
        (
            render::text::page(&report),
            weighed_len(&bare, report.elapsed_ms),
        )
    } else {
        let page = bare.unwrap_or_else(|| render::text::page(&report));
        let len = weighed_len(&page, report.elapsed_ms);
        (page, len)
    };
    // The code attached spends what the page left, as weighed (with its
    // time at six digits): the same on every surface.
    report.code = attach::attach_code(
        &report,
        settings
            .budget_bytes
            .map(|b| b.saturating_sub(page.weight + " 999999ms".len())),
    );
    let outputs = Outputs {
        page,
        unremembered_len,
        changed,
        rg,
        since,
    };
    let shown = emit(settings, &report, outputs, out, err)?;
    remember::record(settings, &shown, err)?;
    let status = exit_status(&ranked, &definitions, partial);
    if settings.exits_after {
        // The process exits once the page is out, and the kernel takes
        // its memory back at once: freeing the tallies, pages and
        // definitions chunk by chunk would only delay the exit.
        std::mem::forget((report, recalled, shown));
        std::mem::forget((memory, ranked, pages, defs, scope));
    }
    Ok(status)
}

/// The search's exit status: `partial` when some paths could not be
/// searched, else no match when nothing matched and no definition is
/// shown, else shown.
fn exit_status(
    ranked: &[Ranked],
    definitions: &[render::Code],
    partial: Option<ExitStatus>,
) -> ExitStatus {
    if ranked.is_empty() && definitions.is_empty() && partial.is_none() {
        ExitStatus::NoMatch
    } else {
        partial.unwrap_or(ExitStatus::Shown)
    }
}

/// The multi-word fallback ranked by meaning: the files `scout smart`
/// ranks for the query first, in its order (the rest keep theirs), and
/// the fallback's sentence saying so; when smart cannot rank the query
/// (no word left once stop words are dropped, or none of its hits among
/// these files), the order stays and the sentence points to `scout smart`.
/// A file smart ranked has smart's points as its score, signal `meaning`,
/// so that `--explain` and the JSON show what ordered it.
fn smart_fallback(
    settings: &SearchSettings,
    ranked: &mut [Ranked],
    sentence: String,
    err: &mut dyn Write,
) -> String {
    let order = crate::smart::file_order(
        &settings.rg,
        &settings.flags,
        &settings.query.text,
        settings.cache_dir.clone(),
        err,
    )
    .unwrap_or_default();
    let position = |path: &[u8]| order.iter().position(|(p, _)| p.as_bytes() == path);
    if !ranked.iter().any(|r| position(&r.tally.path).is_some()) {
        let query = &settings.query.text;
        return if crate::render::shown_whole(query) {
            format!(
                "{sentence}; for a question in words, try: scout smart {}",
                crate::shell::quote(query.as_bytes())
            )
        } else {
            format!("{sentence}; for a question in words, try scout smart with it")
        };
    }
    for r in ranked.iter_mut() {
        if let Some(at) = position(&r.tally.path) {
            let points = order[at].1;
            r.score = crate::page::tally::Score {
                total: points,
                signals: vec![("meaning", points)],
            };
        }
    }
    // A stable sort: files smart did not rank keep their order, after.
    ranked.sort_by_key(|r| position(&r.tally.path).unwrap_or(usize::MAX));
    format!("{sentence}, ranked by meaning as scout smart ranks them")
}

/// One warning naming the files that changed under the search.
fn warn_changed(changed: &[Vec<u8>], err: &mut dyn Write) -> Result<()> {
    if changed.is_empty() {
        return Ok(());
    }
    let mut names: Vec<String> = changed
        .iter()
        .take(5)
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    if changed.len() > 5 {
        names.push(format!("and {} more", changed.len() - 5));
    }
    writeln!(
        err,
        "scout: {} changed while scout searched; lines no longer in the file are not quoted (counts are rg's, from before): {}",
        if changed.len() == 1 { "1 file".to_string() } else { format!("{} files", changed.len()) },
        names.join(", ")
    )?;
    Ok(())
}

/// Matching lines and matches in all (rg's `matched_lines`, `matches`).
fn totals(files: &[FileTally]) -> (u64, u64) {
    (
        files.iter().map(|f| f.hits).sum(),
        files.iter().map(|f| f.matches).sum(),
    )
}

/// The plain rg command with the same counts, and the one that prints
/// every matching line of one file (`FILE` standing for it).
fn repro_commands(flags: &SearchFlags) -> (String, String) {
    let file_command = format!(
        "{} FILE",
        SearchFlags {
            paths: Vec::new(),
            with_filename: false,
            ..flags.clone()
        }
        .repro()
    );
    (flags.repro(), file_command)
}

/// The call of MCP's grep tool that prints the lines of `flags`' search
/// in one file (`FILE` standing for it), for pages read over MCP; `None`
/// when the tool cannot say it: several types, a type scout defines
/// itself (`tsx`, `luau`), a glob with a space or a comma, `-w` with a
/// regex.
fn grep_file_call(flags: &SearchFlags) -> Option<ToolCall> {
    // `\b` is `-w` only around literal word characters.
    let wordy = |p: &String| {
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        flags.fixed_strings && word(p.chars().next()) && word(p.chars().last())
    };
    let representable = flags.types.len() <= 1
        && !flags.types.iter().any(|t| t == "tsx" || t == "luau")
        && !flags.globs.iter().any(|g| g.contains([' ', ',']))
        && (!flags.word || flags.patterns.iter().all(wordy));
    if !representable {
        return None;
    }
    let patterns: Vec<String> = flags
        .patterns
        .iter()
        .map(|p| {
            let p = match flags.fixed_strings {
                true => regex::escape(p),
                false => p.clone(),
            };
            match flags.word {
                true => format!(r"\b(?:{p})\b"),
                false => p,
            }
        })
        .collect();
    let pattern = match patterns.as_slice() {
        [one] => one.clone(),
        _ => patterns
            .iter()
            .map(|p| format!("(?:{p})"))
            .collect::<Vec<_>>()
            .join("|"),
    };
    let mut arguments = serde_json::Map::new();
    arguments.insert("pattern".into(), pattern.into());
    arguments.insert("output_mode".into(), "content".into());
    arguments.insert("path".into(), "FILE".into());
    if flags.ignore_case {
        arguments.insert("ignore_case".into(), true.into());
    }
    if !flags.globs.is_empty() {
        arguments.insert("glob".into(), flags.globs.join(" ").into());
    }
    if let Some(file_type) = flags.types.first() {
        arguments.insert("type".into(), file_type.clone().into());
    }
    Some(ToolCall {
        name: "grep".into(),
        arguments,
    })
}

/// Writes the page: the JSON document (followed, with
/// [`SearchSettings::text_beside_json`], by the text the command would
/// print, chosen as below); nothing when nothing matched (the exit status
/// says so); rg's own lines when there are some (`rg`) and
/// they are smaller than the page (I2), after dropping those of files that
/// changed; else the text page. Warns, once, of the files that
/// changed among those whose lines it prints. The attached code follows either of the
/// last two. Every choice is made on the plain bytes; colour, when on, is
/// added only as they are written ([`render::style`]). Returns what was
/// shown, for the session memory (nothing when this search records
/// nothing).
fn emit(
    settings: &SearchSettings,
    report: &Report<'_>,
    outputs: Outputs<'_>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Vec<Shown>> {
    let Outputs {
        page,
        unremembered_len,
        changed,
        rg,
        since,
    } = outputs;
    let code = render::text::code(&report.code);
    let painter = render::style::Painter::new(settings.color, || {
        rg.as_ref().and_then(|(flags, _)| Matcher::new(flags))
    });
    if settings.json {
        let document = render::json::document(report, page.tokens);
        render::json::write_document(out, &document)?;
        if !settings.text_beside_json {
            warn_changed(&changed, err)?;
            return Ok(remember::shown_on_page(settings, report));
        }
        // The text the command would print follows; it is what the
        // agent reads, and what is remembered.
    }
    // Weighed without the memory (and with every footer command at the
    // footer's room, so `--again` weighs the same), so that neither turns
    // a page into rg's lines or back; but a page that holds every file
    // (one page) names the files rg's lines do, and is printed as the
    // memory collapses it when that is the smaller.
    // The definitions a qualified name names precede rg's lines as they
    // precede the page's files: weighed apart, as attached code is (I2).
    let definitions = render::text::definitions(report.definitions);
    let fits = |len: usize, plain: &Plain| {
        page_fits(len - definitions.len(), report.elapsed_ms, plain.bytes)
    };
    let whole = report.pages.len() == 1 && report.already_shown() > 0;
    let Some((flags, mut plain)) = rg.filter(|(_, plain)| {
        !(report.ranked.is_empty()
            || settings.files_only
            || settings.explain
            || fits(unremembered_len, plain)
            || (whole && fits(weighed_len(&page, report.elapsed_ms), plain)))
    }) else {
        warn_changed(&changed, err)?;
        return emit_page(settings, report, &page, &code, &painter, out, err);
    };
    warn_changed(&verify::verify_plain(since, &mut plain), err)?;
    if let Some(fallback) = &report.fallback {
        writeln!(err, "scout: {fallback}")?;
    }
    let mut shown = Vec::new();
    painter.write(out, &definitions)?;
    if let Some(sorted) = plain.into_ranked(&report.file_order()) {
        render::plain::write_lines(out, &sorted, settings.with_filename, &painter)?;
        shown = remember::shown_in_plain(settings, &sorted.lines);
    } else {
        // More lines than the fold kept: rg prints them again.
        let mut write_error = None;
        run_plain(&settings.rg, &flags.plain(), |line| {
            match out.write_all(line) {
                Ok(()) => Flow::Continue,
                Err(e) => {
                    write_error = Some(e);
                    Flow::Stop
                }
            }
        })?;
        if let Some(e) = write_error {
            return Err(e).context("writing the output");
        }
    }
    painter.write(out, &code)?;
    Ok(shown)
}

/// What [`emit`] chooses between: the page (and the files whose quotes
/// [`verify::verify_page`] dropped), or rg's own lines, verified only if
/// they are printed.
struct Outputs<'f> {
    page: render::text::Page,
    /// The page's weight as it would be shown without the memory
    /// ([`weighed_len`]).
    unremembered_len: usize,
    changed: Vec<Vec<u8>>,
    rg: Option<(&'f SearchFlags, Plain)>,
    since: SystemTime,
}

/// The text page (nothing when nothing matched), then the attached code.
fn emit_page(
    settings: &SearchSettings,
    report: &Report<'_>,
    page: &render::text::Page,
    code: &render::style::Styled,
    painter: &render::style::Painter,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Vec<Shown>> {
    if report.ranked.is_empty() && report.definitions.is_empty() {
        // Nothing attributed still says what the graph made of the calls
        // it saw (another definition's, or cannot tell): on stderr, since
        // exit 1 means nothing on stdout.
        if !report.scope_text.is_empty() {
            err.write_all(page.text.plain())?;
        }
        return Ok(Vec::new());
    }
    painter.write(out, &page.text)?;
    painter.write(out, code)?;
    Ok(remember::shown_on_page(settings, report))
}

/// A page's weight with its header's time as shown: what [`page_fits`]
/// weighs.
fn weighed_len(page: &render::text::Page, elapsed_ms: u64) -> usize {
    page.weight + format!(" {elapsed_ms}ms").len()
}

/// Whether a text page of `page_len` bytes, whose header shows
/// `elapsed_ms`, is printed rather than rg's `plain_bytes` of lines (I2).
/// The time is weighed as if it had six digits, so that how long the
/// search took never decides which of the two is printed (I5; a
/// page within a byte of rg's output came out ranked or plain by the
/// digits of its milliseconds).
fn page_fits(page_len: usize, elapsed_ms: u64, plain_bytes: u64) -> bool {
    let shown = format!(" {elapsed_ms}ms").len();
    let reserved = " 999999ms".len().max(shown);
    (page_len - shown.min(page_len) + reserved) as u64 <= plain_bytes
}

/// What a page's report is made of, apart from the page itself.
pub struct Parts<'a> {
    pub query: &'a Query,
    pub fallback: Option<String>,
    pub hits: u64,
    pub matches: u64,
    pub ranked: &'a [Ranked],
    pub repro: String,
    pub file_command: String,
    pub defs: &'a [Vec<Def>],
    pub structural: Option<render::Structural>,
    pub definitions: &'a [render::Code],
    pub scope: Option<&'a crate::graph::Scope>,
    /// The scope as the footer says it (empty without one).
    pub scope_text: &'a str,
}

impl<'a> Parts<'a> {
    /// The report of page `index` (0-based) of `pages`, with `seen` the
    /// lines of each slot the session was already shown.
    pub fn report<'p>(
        &'p self,
        settings: &SearchSettings,
        started: Instant,
        pages: &'p [PageSpan],
        index: usize,
        seen: Vec<Vec<u64>>,
    ) -> Report<'p> {
        Report {
            query: self.query,
            fallback: self.fallback.clone(),
            hits: self.hits,
            matches: self.matches,
            ranked: self.ranked,
            omitted: omitted(self.ranked, &pages[index]),
            pages,
            page: index + 1,
            elapsed_ms: started.elapsed().as_millis() as u64,
            repro: self.repro.clone(),
            file_command: self.file_command.clone(),
            footer_room: settings.footer_room(),
            note_room: settings.note_room(),
            command: settings.asked(),
            explain: settings.explain,
            files_only: settings.files_only,
            seen,
            defs: self.defs,
            code: Vec::new(),
            definitions: self.definitions,
            structural: self.structural,
            scope: self.scope,
            scope_text: self.scope_text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regression_the_elapsed_milliseconds_never_choose_page_or_plain() {
        for plain in 90..110 {
            let fits = page_fits(100, 5, plain);
            for ms in [0, 9, 10, 99, 100, 999, 12_345, 999_999] {
                let len = 100 - " 5ms".len() + format!(" {ms}ms").len();
                assert_eq!(page_fits(len, ms, plain), fits, "{plain} bytes, {ms} ms");
            }
        }
        // Never larger than rg's lines, whatever the time (I2).
        assert!(!page_fits(100, 5, 99));
        assert!(!page_fits(100, 5_000_000, 99));
    }
}
