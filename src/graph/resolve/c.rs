//! C's one global namespace: a call of a function the file does not
//! define reaches the tree's one non-`static` definition of the name, or
//! the one whose header the file includes.

use std::path::{Path, PathBuf};

use super::{Place, Resolver, Verdict};
use crate::graph::facts::Facts;
use crate::lang::Lang;

impl Resolver<'_> {
    /// A C call of a function the file does not define: the tree's one
    /// non-`static` definition of the name, or the one whose header the
    /// file includes.
    pub(super) fn c_global(&self, path: &Path, facts: &Facts) -> Verdict {
        let target = self.target;
        if target.owner.is_some() {
            return Verdict::CannotTell("not defined in the file");
        }
        if let Some(verdict) = self.renamed(path, facts) {
            return verdict;
        }
        // `#include "dict.c"`: the included file's definitions are the
        // file's own, `static` ones too; its include path decides.
        let name = &target.def.short;
        for module in facts.imports.iter().map(|i| &i.module) {
            let Place::File(file) = self.files.place(Lang::C, path, module) else {
                continue;
            };
            let file = std::fs::canonicalize(&file).unwrap_or(file);
            if file == target.canon {
                return Verdict::Target("defined in a file the file includes");
            }
            let defines = self.files.get(&file).is_some_and(|f| {
                f.defs
                    .iter()
                    .any(|d| d.short == *name && d.kind == crate::defs::DefKind::Function)
            });
            if defines {
                return Verdict::Outside(format!(
                    "the definition in {}, which the file includes",
                    crate::graph::display(&file)
                ));
            }
        }
        let visible_target = !target.is_static || path == target.canon;
        let others = &target.c_definers;
        if visible_target && others.iter().all(|p| *p == target.canon) {
            return Verdict::Target("the tree's only external definition");
        }
        let stem = |p: &Path| {
            p.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        // A header names its definition's file by its stem (`sds.h` for
        // `sds.c`) and, when it resolves beside the file, by its directory
        // too: two libraries may each have an `sds.c`.
        let headers: Vec<(String, Option<PathBuf>)> = facts
            .imports
            .iter()
            .map(|i| {
                let dir = match self.files.place(Lang::C, path, &i.module) {
                    Place::File(file) => file.parent().map(Path::to_path_buf),
                    _ => None,
                };
                (stem(Path::new(&i.module)), dir)
            })
            .collect();
        let declares = |definer: &Path| {
            let same_stem: Vec<&Option<PathBuf>> = headers
                .iter()
                .filter(|(s, _)| *s == stem(definer))
                .map(|(_, d)| d)
                .collect();
            same_stem.iter().any(|dir| match dir {
                Some(dir) => definer.parent() == Some(dir.as_path()),
                // Found by the include path: the stem alone, when no other
                // definer shares it.
                None => others.iter().filter(|o| stem(o) == stem(definer)).count() == 1,
            })
        };
        if visible_target && declares(&target.canon) {
            return Verdict::Target("declared in a header the file includes");
        }
        if let Some(other) = others.iter().find(|p| **p != target.canon && declares(p)) {
            return Verdict::Outside(format!(
                "the definition in {}",
                crate::graph::display(other)
            ));
        }
        if !visible_target && others.len() == 1 {
            return Verdict::Outside("the target is static in another file".into());
        }
        Verdict::CannotTell("defined in several files, none whose header the file includes")
    }

    /// A call of a name that a macro in the file, or in a header it
    /// includes, renames (`#define sdsnewlen hi_sdsnewlen` in hiredis's
    /// `sdscompat.h`): the preprocessor makes it a call of the other
    /// function. A header is the one included when its path ends with
    /// the include as written (`<sdscompat.h>`, `"hiredis/sds.h"`).
    fn renamed(&self, path: &Path, facts: &Facts) -> Option<Verdict> {
        let renames = &self.target.c_renames;
        if renames.is_empty() {
            return None;
        }
        let by_suffix = |header: &Path, written: &str| {
            header.ends_with(Path::new(written.trim_start_matches("./")))
        };
        let included = |header: &Path| {
            header == path
                || facts
                    .imports
                    .iter()
                    .any(|i| match self.files.place(Lang::C, path, &i.module) {
                        Place::File(file) => std::fs::canonicalize(&file).unwrap_or(file) == header,
                        _ => by_suffix(header, &i.module),
                    })
                || facts.system_includes.iter().any(|w| by_suffix(header, w))
        };
        let (header, to) = renames.iter().find(|(header, _)| included(header))?;
        Some(Verdict::Outside(format!(
            "{to}, as a macro in {} renames it",
            crate::graph::display(header)
        )))
    }
}
