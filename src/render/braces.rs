//! Many paths written as a few shell brace expressions.
//!
//! A name defined in hundreds of generated files (bindings for every
//! architecture, one copy per vendored version) cannot be named a path at
//! a time within the page's note. Such files differ in one directory and
//! in their file name, so they fall into rectangles: every file name of a
//! set in every directory of a set, under one parent,
//! `parent/{arm,x86}/{general,net}.rs`. Each expression expands (bash
//! brace expansion) to exactly the paths it stands for, no more.

use std::collections::BTreeMap;

/// One brace expression and how many paths it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expression {
    pub text: Vec<u8>,
    pub paths: usize,
    /// Index in the input of its first path (the order to print in).
    first: usize,
}

/// `paths` as brace expressions, in the order of each expression's first
/// path. `None` when a path holds a byte that brace expansion would read
/// as syntax (`{`, `}`, `,`, whitespace, a quote or a backslash).
pub fn compress(paths: &[&[u8]]) -> Option<Vec<Expression>> {
    if paths.iter().any(|p| p.iter().any(|&b| is_syntax(b))) {
        return None;
    }
    // parent -> directory name -> file names (with each path's index).
    let mut tree: BTreeMap<Parent<'_>, Dirs<'_>> = BTreeMap::new();
    for (i, path) in paths.iter().enumerate() {
        let (dir, base) = split_last(path);
        let (parent, name) = match dir {
            None => (Parent::Bare, &b""[..]),
            Some(dir) => match split_last(dir) {
                (None, name) => (Parent::Top, name),
                (Some(parent), name) => (Parent::Dir(parent), name),
            },
        };
        tree.entry(parent)
            .or_default()
            .entry(name)
            .or_default()
            .push((base, i));
    }
    let mut out = Vec::new();
    for (parent, dirs) in &tree {
        let by_dirs = rectangles_by_dir(dirs);
        let by_names = rectangles_by_name(dirs);
        let chosen = if size(&by_names) < size(&by_dirs) {
            by_names
        } else {
            by_dirs
        };
        for (dir_names, file_names, first) in chosen {
            out.push(Expression {
                text: expression(*parent, &dir_names, &file_names),
                paths: dir_names.len() * file_names.len(),
                first,
            });
        }
    }
    // What no rectangle joined may still share directories:
    // `./spring-beans/src/test/{a/X,b/Y}.java`.
    let (singles, mut out): (Vec<Expression>, Vec<Expression>) =
        out.into_iter().partition(|e| e.paths == 1);
    let mut singles: Vec<(Vec<u8>, usize)> =
        singles.into_iter().map(|e| (e.text, e.first)).collect();
    singles.sort();
    if !singles.is_empty() {
        out.extend(under_prefix(&singles, 0).1);
    }
    out.sort_by_key(|e| e.first);
    Some(out)
}

/// The shortest way to write `paths` (sorted, all sharing their first
/// `prefix` bytes, which end at a `/` or are empty): one expression
/// `prefix{rest,rest}`, or one plan per next directory. Returns its length
/// (with a `, ` per expression) and the expressions.
fn under_prefix(paths: &[(Vec<u8>, usize)], prefix: usize) -> (usize, Vec<Expression>) {
    let first = paths.iter().map(|p| p.1).min().unwrap_or(0);
    let rests: Vec<&[u8]> = paths.iter().map(|p| &p.0[prefix..]).collect();
    let mut flat = paths[0].0[..prefix].to_vec();
    flat.extend_from_slice(&with_shared_extension(&rests));
    let flat = Expression {
        text: flat,
        paths: paths.len(),
        first,
    };
    if paths.len() == 1 {
        return (flat.text.len() + 2, vec![flat]);
    }
    // Split by the next directory; a file right here stands alone.
    let (mut cost, mut split) = (0, Vec::new());
    let mut i = 0;
    while i < paths.len() {
        let rest = &paths[i].0[prefix..];
        let Some(slash) = rest.iter().position(|&b| b == b'/') else {
            let (c, e) = under_prefix(&paths[i..=i], paths[i].0.len());
            cost += c;
            split.extend(e);
            i += 1;
            continue;
        };
        let dir = &rest[..=slash];
        let end = i + paths[i..]
            .iter()
            .take_while(|p| p.0[prefix..].starts_with(dir))
            .count();
        if end - i == paths.len() {
            // Everything is in one directory: nothing to choose here.
            return under_prefix(paths, prefix + dir.len());
        }
        let (c, e) = under_prefix(&paths[i..end], prefix + dir.len());
        cost += c;
        split.extend(e);
        i = end;
    }
    // Braces at the top only for bare names: `{a/x,b/y}.rs` reads badly.
    let readable = prefix > 0 || rests.iter().all(|r| !r.contains(&b'/'));
    if readable && flat.text.len() + 2 <= cost {
        (flat.text.len() + 2, vec![flat])
    } else {
        (cost, split)
    }
}

/// Where a file's directory is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Parent<'a> {
    /// No directory: a bare file name.
    Bare,
    /// A directory at the top of a relative path (`src` in `src/a.rs`).
    Top,
    /// The directory's own parent (`./x` in `./x/y/a.rs`, empty in `/y/a.rs`).
    Dir(&'a [u8]),
}

/// (directory names, file names, first index): every file in every
/// directory.
type Rectangle<'a> = (Vec<&'a [u8]>, Vec<&'a [u8]>, usize);

type Dirs<'a> = BTreeMap<&'a [u8], Vec<(&'a [u8], usize)>>;

/// Members with the same set of partners: set -> (members, first index).
type Groups<'a> = BTreeMap<Vec<&'a [u8]>, (Vec<&'a [u8]>, usize)>;

fn group_by_set<'a>(
    members: impl IntoIterator<Item = (&'a [u8], Vec<&'a [u8]>, usize)>,
) -> Groups<'a> {
    let mut groups = Groups::new();
    for (member, set, first) in members {
        let slot = groups.entry(set).or_insert((Vec::new(), usize::MAX));
        slot.0.push(member);
        slot.1 = slot.1.min(first);
    }
    groups
}

/// Directories with the same set of file names, together.
fn rectangles_by_dir<'a>(dirs: &Dirs<'a>) -> Vec<Rectangle<'a>> {
    group_by_set(dirs.iter().map(|(&dir, files)| {
        let mut names: Vec<&[u8]> = files.iter().map(|f| f.0).collect();
        names.sort();
        (dir, names, files.iter().map(|f| f.1).min().unwrap_or(0))
    }))
    .into_iter()
    .map(|(names, (dirs, first))| (dirs, names, first))
    .collect()
}

/// File names found in the same set of directories, together.
fn rectangles_by_name<'a>(dirs: &Dirs<'a>) -> Vec<Rectangle<'a>> {
    let mut homes: BTreeMap<&[u8], (Vec<&[u8]>, usize)> = BTreeMap::new();
    for (&dir, files) in dirs {
        for &(name, i) in files {
            let slot = homes.entry(name).or_insert((Vec::new(), usize::MAX));
            slot.0.push(dir);
            slot.1 = slot.1.min(i);
        }
    }
    group_by_set(
        homes
            .into_iter()
            .map(|(name, (dirs, first))| (name, dirs, first)),
    )
    .into_iter()
    .map(|(dirs, (names, first))| (dirs, names, first))
    .collect()
}

fn size(rectangles: &[Rectangle<'_>]) -> usize {
    rectangles
        .iter()
        .map(|(d, n, _)| d.iter().chain(n).map(|x| x.len() + 1).sum::<usize>() + 4)
        .sum()
}

/// `parent/{d1,d2}/{n1,n2}.ext`.
fn expression(parent: Parent<'_>, dirs: &[&[u8]], names: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    if let Parent::Dir(parent) = parent {
        out.extend_from_slice(parent);
        out.push(b'/');
    }
    if parent != Parent::Bare {
        out.extend_from_slice(&alternatives(dirs));
        out.push(b'/');
    }
    out.extend_from_slice(&with_shared_extension(names));
    out
}

/// `{a,b}.rs` for `a.rs` and `b.rs`; `{a.rs,b.go}`; `a.rs` alone.
fn with_shared_extension(names: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    let ext = names
        .first()
        .and_then(|n| n.iter().rposition(|&b| b == b'.').map(|i| &n[i..]))
        .filter(|ext| {
            names.len() > 1
                && names
                    .iter()
                    .all(|n| n.ends_with(ext) && n.len() > ext.len())
        });
    match ext {
        Some(ext) => {
            let stems: Vec<&[u8]> = names.iter().map(|n| &n[..n.len() - ext.len()]).collect();
            out.extend_from_slice(&alternatives(&stems));
            out.extend_from_slice(ext);
        }
        None => out.extend_from_slice(&alternatives(names)),
    }
    out
}

fn alternatives(items: &[&[u8]]) -> Vec<u8> {
    if let [one] = items {
        return one.to_vec();
    }
    let mut out = vec![b'{'];
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(item);
    }
    out.push(b'}');
    out
}

fn split_last(path: &[u8]) -> (Option<&[u8]>, &[u8]) {
    match path.iter().rposition(|&b| b == b'/') {
        Some(i) => (Some(&path[..i]), &path[i + 1..]),
        None => (None, path),
    }
}

fn is_syntax(b: u8) -> bool {
    matches!(
        b,
        b'{' | b'}' | b',' | b'\'' | b'"' | b'\\' | b'$' | b'*' | b'?' | b'['
    ) || b.is_ascii_whitespace()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// bash brace expansion, for the forms [`compress`] writes.
    fn expand(text: &str) -> Vec<String> {
        let Some(open) = text.find('{') else {
            return vec![text.to_string()];
        };
        let close = open + text[open..].find('}').unwrap();
        let mut out = Vec::new();
        for alt in text[open + 1..close].split(',') {
            for rest in expand(&text[close + 1..]) {
                out.push(format!("{}{alt}{rest}", &text[..open]));
            }
        }
        out
    }

    fn round_trip(paths: &[&str]) -> Vec<String> {
        let bytes: Vec<&[u8]> = paths.iter().map(|p| p.as_bytes()).collect();
        let exprs = compress(&bytes).unwrap();
        let mut expanded: Vec<String> = exprs
            .iter()
            .flat_map(|e| {
                let text = String::from_utf8(e.text.clone()).unwrap();
                let all = expand(&text);
                assert_eq!(all.len(), e.paths, "{text}");
                all
            })
            .collect();
        expanded.sort();
        let mut want: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
        want.sort();
        assert_eq!(expanded, want);
        exprs
            .iter()
            .map(|e| String::from_utf8(e.text.clone()).unwrap())
            .collect()
    }

    #[test]
    fn generated_bindings_become_one_rectangle_and_its_leftovers() {
        let mut paths = Vec::new();
        for arch in ["arm", "x86", "x86_64", "mips"] {
            for file in ["general", "net", "ioctl"] {
                paths.push(format!("./sys-0.4/src/{arch}/{file}.rs"));
            }
        }
        paths.push("./sys-0.4/src/x86/bootparam.rs".into());
        paths.push("./sys-0.4/src/x86_64/bootparam.rs".into());
        let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
        assert_eq!(
            round_trip(&refs),
            [
                "./sys-0.4/src/{arm,mips,x86,x86_64}/{general,ioctl,net}.rs",
                "./sys-0.4/src/{x86,x86_64}/bootparam.rs",
            ]
        );
    }

    #[test]
    fn single_files_and_bare_names_stay_as_they_are() {
        assert_eq!(
            round_trip(&["a.rs", "src/b.rs", "./x/y/c.py", "a.go"]),
            ["{a.go,a.rs}", "src/b.rs", "./x/y/c.py"]
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn scattered_files_share_their_common_directories() {
        let exprs = round_trip(&[
            "./spring-beans/src/test/java/org/beans/factory/aot/AotServicesTests.java",
            "./spring-beans/src/test/java/org/beans/factory/support/RegisteredBeanTests.java",
            "./spring-tx/src/test/java/org/tx/event/ListenerTests.java",
            "./spring-core/src/test/java/org/core/convert/PropertyTests.java",
        ]);
        assert_eq!(
            exprs,
            [
                "./spring-beans/src/test/java/org/beans/factory/{aot/AotServicesTests,support/RegisteredBeanTests}.java",
                "./spring-tx/src/test/java/org/tx/event/ListenerTests.java",
                "./spring-core/src/test/java/org/core/convert/PropertyTests.java",
            ]
        );
    }

    #[test]
    fn bare_top_and_absolute_paths_stay_apart() {
        let exprs = round_trip(&["a.rs", "t/a.rs", "/t/a.rs", "u/a.rs"]);
        assert_eq!(exprs, ["a.rs", "{t,u}/a.rs", "/t/a.rs"]);
    }

    #[test]
    fn paths_with_brace_syntax_are_not_compressed() {
        assert!(compress(&[b"a/{x}.rs", b"b.rs"]).is_none());
        assert!(compress(&[b"a/x y.rs"]).is_none());
    }
}
