//! Python's pytest fixtures: a test's untyped parameter takes the value
//! of the fixture of its name, in the file or a `conftest.py` above it.

use std::path::Path;

use super::{Meaning, Resolver};
use crate::graph::facts::Facts;

impl Resolver<'_> {
    /// The value of the pytest fixture `name` seen from the file at
    /// `path`: what the fixture returns or yields, as an instance.
    pub(super) fn fixture(&self, path: &Path, facts: &Facts, name: &str) -> Option<Meaning> {
        let defined = |file: &Path, facts: &Facts| {
            facts
                .defs
                .iter()
                .find(|d| d.short == name && facts.fixtures.contains(&d.name_line))
                .map(|d| (file.to_path_buf(), d.name_line))
        };
        let mut found = defined(path, facts);
        let mut dir = path.parent();
        let mut levels = 0;
        while found.is_none() && levels < 8 {
            let Some(d) = dir else {
                break;
            };
            let conftest = d.join("conftest.py");
            if let Some(conf) = self.files.get(&conftest) {
                found = defined(&conftest, &conf);
            }
            dir = d.parent();
            levels += 1;
        }
        let (file, line) = found?;
        let facts = self.files.get(&file)?;
        let ty = facts.returns.iter().find(|r| r.line == line)?.ty.clone();
        Some(Meaning::Instance(ty, file))
    }
}
