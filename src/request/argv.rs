//! The command line a request stands for: the pieces every mode's is
//! built from.

use std::ffi::OsString;

use crate::views;

use super::schema::Paths;

/// `flag VALUE` on `argv`, as one word `flag=VALUE` when the value starts
/// with '-' (so that no parser reads it as a flag of its own).
pub(super) fn push_value(argv: &mut Vec<OsString>, flag: &str, value: &str) {
    if value.starts_with('-') {
        argv.push(format!("{flag}={value}").into());
    } else {
        argv.extend([flag.into(), value.into()]);
    }
}

/// The `-g`, `--type` and `--budget-tokens` flags search and smart
/// requests share, appended to `argv`.
pub(super) fn push_filters(
    argv: &mut Vec<OsString>,
    glob: Option<&str>,
    file_type: Option<&str>,
    budget_tokens: Option<u64>,
) {
    for glob in glob.iter().flat_map(|g| views::split_globs(g)) {
        push_value(argv, "-g", &glob);
    }
    if let Some(file_type) = file_type {
        push_value(argv, "--type", file_type);
    }
    if let Some(budget) = budget_tokens {
        argv.extend(["--budget-tokens".into(), budget.to_string().into()]);
    }
}

/// A request's paths, as a command line's positionals.
pub(super) fn paths_of(paths: &Option<Paths>) -> Vec<OsString> {
    paths
        .iter()
        .flat_map(Paths::all)
        .map(OsString::from)
        .collect()
}

/// A request's `glob` (comma-separated), as `-g` flags.
pub(super) fn globs_of(glob: Option<&str>) -> Vec<String> {
    glob.map(views::split_globs).unwrap_or_default()
}
