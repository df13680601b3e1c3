//! rg's configuration file (`RIPGREP_CONFIG_PATH`) as scout hands it to
//! the rg it runs. Its lines apply to every rg scout starts, as they do in
//! a shell, but for those that choose rg's output itself (`--count`,
//! `--files-with-matches`, `--json`, `--replace`, ...): scout chooses its
//! output, and such a line made every search fail ("--count cannot be
//! used with --json"). Those lines are left out of a copy kept in scout's
//! cache directory (`rg-config/HASH`, one per distinct file), and the rg
//! scout runs reads the copy. A file with none of them is read as it is.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Flags that choose what rg prints, standing alone on a line.
const OUTPUT_FLAGS: &[&str] = &[
    "-c",
    "--count",
    "--count-matches",
    "-l",
    "--files-with-matches",
    "--files-without-match",
    "--json",
    "--vimgrep",
    "-q",
    "--quiet",
    "-o",
    "--only-matching",
    "--files",
    "--type-list",
];

/// The configuration the rg scout runs should read, when it is not the
/// user's own file: set `RIPGREP_CONFIG_PATH` to it. Made once per
/// process.
pub fn for_rg() -> Option<&'static Path> {
    static FOR_RG: OnceLock<Option<PathBuf>> = OnceLock::new();
    FOR_RG
        .get_or_init(|| {
            let path = std::env::var_os("RIPGREP_CONFIG_PATH").filter(|p| !p.is_empty())?;
            let text = std::fs::read(&path).ok()?;
            let kept = without_output_flags(&text)?;
            let dir = crate::dirs::cache_dir()?.join("rg-config");
            std::fs::create_dir_all(&dir).ok()?;
            let copy = dir.join(format!("{:016x}", crate::hash::fnv1a64(&kept)));
            if std::fs::read(&copy).ok().as_deref() != Some(&kept[..]) {
                let mut staged = tempfile::NamedTempFile::new_in(&dir).ok()?;
                std::io::Write::write_all(&mut staged, &kept).ok()?;
                staged.persist(&copy).ok()?;
            }
            Some(copy)
        })
        .as_deref()
}

/// `text` (a config file: one argument a line, `#` comments) without the
/// lines that choose rg's output, and the value line after a lone
/// `--replace`/`-r`; `None` when it has none of them.
fn without_output_flags(text: &[u8]) -> Option<Vec<u8>> {
    let mut kept = Vec::with_capacity(text.len());
    let mut dropped = false;
    let mut skip_value = false;
    for line in text.split_inclusive(|&b| b == b'\n') {
        let arg = line.trim_ascii();
        if skip_value {
            skip_value = false;
            dropped = true;
            continue;
        }
        let replace = arg == b"-r" || arg == b"--replace";
        let output = OUTPUT_FLAGS.iter().any(|f| arg == f.as_bytes())
            || arg.starts_with(b"--replace=")
            || (arg.starts_with(b"-r") && !arg.starts_with(b"--") && arg.len() > 2);
        if replace || output {
            skip_value = replace;
            dropped = true;
            continue;
        }
        kept.extend_from_slice(line);
    }
    dropped.then_some(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_choosing_lines_are_left_out_and_the_others_kept() {
        let text =
            b"# mine\n--hidden\n--count\n-g\n!vendor/**\n--replace\nX\n--smart-case\n--json\n";
        assert_eq!(
            without_output_flags(text).unwrap(),
            b"# mine\n--hidden\n-g\n!vendor/**\n--smart-case\n"
        );
        assert_eq!(without_output_flags(b"--hidden\n-i\n"), None);
        assert_eq!(
            without_output_flags(b"-rfoo\n--replace=bar\n-l\n--max-columns=150\n").unwrap(),
            b"--max-columns=150\n"
        );
    }
}
