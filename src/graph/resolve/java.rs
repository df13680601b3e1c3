//! Java's names: classes of the file's package under every source root
//! (`src/test/java` beside `src/main/java`), dotted names (`a.b.C`,
//! `a.b.Outer.Inner`, a static import's `a.b.C.m`), remembered per
//! directory.

use std::path::{Path, PathBuf};

use super::{owner_of, Meaning, Resolver};
use crate::defs::DefKind;

impl Resolver<'_> {
    /// A class of the file's own package: in its directory, or in the
    /// same package under another source root (`src/test/java` beside
    /// `src/main/java`).
    pub(super) fn java_same_package(&self, path: &Path, name: &str) -> Meaning {
        let package = self.files.get(path).and_then(|f| f.package.clone());
        match package {
            Some(package) => self
                .java_class(path, &format!("{package}.{name}"))
                .unwrap_or(Meaning::Unknown),
            None => {
                let dir = path.parent().unwrap_or(Path::new("/"));
                self.java_in_file(&dir.join(format!("{name}.java")), name)
                    .unwrap_or(Meaning::Unknown)
            }
        }
    }

    /// The source root of a Java file: its directory less its package's.
    pub(super) fn java_root(&self, file: &Path) -> Option<PathBuf> {
        let package = self.files.get(file)?.package.clone().unwrap_or_default();
        let mut root = file.parent()?.to_path_buf();
        for _ in package.split('.').filter(|p| !p.is_empty()) {
            root = root.parent()?.to_path_buf();
        }
        Some(root)
    }

    /// The class (or, for a static import, the member) a dotted Java name
    /// stands for (`org.jsoup.nodes.Comment`, `a.b.Outer.Inner`,
    /// `a.b.C.method`), looked up under the source roots of the file and
    /// of the target.
    pub(super) fn java_class(&self, from: &Path, dotted: &str) -> Option<Meaning> {
        let key = (
            from.parent().unwrap_or(Path::new("/")).to_path_buf(),
            dotted.to_string(),
        );
        if let Some(found) = self.files.java.borrow().get(&key) {
            return found.clone();
        }
        let found = self.find_java_class(from, dotted);
        self.files.java.borrow_mut().insert(key, found.clone());
        found
    }

    /// [`Resolver::java_class`], looked up.
    pub(super) fn find_java_class(&self, from: &Path, dotted: &str) -> Option<Meaning> {
        let mut roots: Vec<PathBuf> = Vec::new();
        for file in [from, self.target.canon.as_path()] {
            if let Some(root) = self.java_root(file) {
                if !roots.contains(&root) {
                    roots.push(root);
                }
            }
        }
        let parts: Vec<&str> = dotted.split('.').collect();
        for root in &roots {
            // The longest prefix that is a file; the rest names a class
            // nested in it, or a member.
            for take in (1..=parts.len()).rev() {
                let mut file = root.clone();
                for part in &parts[..take] {
                    file.push(part);
                }
                file.set_extension("java");
                if !file.is_file() {
                    continue;
                }
                let file = std::fs::canonicalize(&file).ok()?;
                let inner = parts[take - 1..].join(".");
                if let Some(found) = self.java_in_file(&file, &inner) {
                    return Some(found);
                }
                // `a.b.C.method` (a static import): the method of class C.
                let (class, member) = inner.rsplit_once('.')?;
                let facts = self.files.get(&file)?;
                let def = facts
                    .defs
                    .iter()
                    .find(|d| d.short == member && owner_of(d) == Some(class))?;
                return Some(Meaning::Def(file, def.clone()));
            }
        }
        None
    }

    /// The definition named `name` (`Outer.Inner` for a nested class) in
    /// the file at `file`.
    pub(super) fn java_in_file(&self, file: &Path, name: &str) -> Option<Meaning> {
        let facts = self.files.get(file)?;
        let def = facts
            .defs
            .iter()
            .find(|d| d.name == name && d.kind != DefKind::Method)?;
        Some(Meaning::Def(file.to_path_buf(), def.clone()))
    }
}
