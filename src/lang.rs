//! Source languages scout knows by file name.
//!
//! This module owns the mapping from a path to a [`Lang`]; the lexical
//! definition rules (`rank::lexical`) and the parser-backed definitions
//! (`defs`) both key their per-language tables on it. Unknown extensions
//! are `None`: such files are still searched and ranked, only without
//! definition detection.

/// A language with definition rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    Rust,
    Python,
    JavaScript,
    TypeScript,
    /// TypeScript with JSX (`.tsx`).
    Tsx,
    Go,
    Ruby,
    Java,
    Kotlin,
    CSharp,
    C,
    Cpp,
    Php,
    Lua,
    Luau,
    Swift,
    Scala,
    Elixir,
    Haskell,
    Zig,
    /// Bash and POSIX sh (`.sh`, `.bash`).
    Bash,
    Dart,
}

impl Lang {
    /// Every language, in a fixed order (for `doctor` and tests).
    pub const ALL: [Lang; 22] = [
        Lang::Rust,
        Lang::Python,
        Lang::JavaScript,
        Lang::TypeScript,
        Lang::Tsx,
        Lang::Go,
        Lang::Ruby,
        Lang::Java,
        Lang::Kotlin,
        Lang::CSharp,
        Lang::C,
        Lang::Cpp,
        Lang::Php,
        Lang::Lua,
        Lang::Luau,
        Lang::Swift,
        Lang::Scala,
        Lang::Elixir,
        Lang::Haskell,
        Lang::Zig,
        Lang::Bash,
        Lang::Dart,
    ];

    /// The language of a file, from its extension (bytes, since paths may
    /// not be UTF-8). `.h` counts as C++ because C++ rules accept C.
    pub fn from_path(path: &[u8]) -> Option<Lang> {
        let name = match path.iter().rposition(|&b| b == b'/') {
            Some(i) => &path[i + 1..],
            None => path,
        };
        let dot = name.iter().rposition(|&b| b == b'.')?;
        let ext = &name[dot + 1..];
        let lang = match ext {
            b"rs" => Lang::Rust,
            b"py" | b"pyi" | b"pyw" => Lang::Python,
            b"js" | b"jsx" | b"mjs" | b"cjs" => Lang::JavaScript,
            b"ts" | b"mts" | b"cts" => Lang::TypeScript,
            b"tsx" => Lang::Tsx,
            b"go" => Lang::Go,
            b"rb" | b"rake" => Lang::Ruby,
            b"java" => Lang::Java,
            b"kt" | b"kts" => Lang::Kotlin,
            b"cs" => Lang::CSharp,
            b"c" => Lang::C,
            b"h" | b"cc" | b"cpp" | b"cxx" | b"hpp" | b"hh" | b"hxx" | b"ipp" | b"inl" => Lang::Cpp,
            b"php" => Lang::Php,
            b"lua" => Lang::Lua,
            b"luau" => Lang::Luau,
            b"swift" => Lang::Swift,
            b"scala" | b"sbt" => Lang::Scala,
            b"ex" | b"exs" => Lang::Elixir,
            b"hs" | b"hsc" => Lang::Haskell,
            b"zig" => Lang::Zig,
            b"sh" | b"bash" => Lang::Bash,
            b"dart" => Lang::Dart,
            _ => return None,
        };
        Some(lang)
    }

    /// The language a name or a usual alias stands for, in any case
    /// (`rust`/`rs`, `typescript`/`ts`, `c++`/`cpp`, `csharp`/`cs`, ...),
    /// as `--lang` reads it. Every name [`Lang::name`] gives is accepted.
    pub fn from_name(name: &str) -> Option<Lang> {
        let lower = name.to_ascii_lowercase();
        let lang = match lower.as_str() {
            "rust" | "rs" => Lang::Rust,
            "python" | "py" => Lang::Python,
            "javascript" | "js" | "jsx" => Lang::JavaScript,
            "typescript" | "ts" => Lang::TypeScript,
            "tsx" => Lang::Tsx,
            "go" | "golang" => Lang::Go,
            "ruby" | "rb" => Lang::Ruby,
            "java" => Lang::Java,
            "kotlin" | "kt" => Lang::Kotlin,
            "csharp" | "cs" | "c#" => Lang::CSharp,
            "c" => Lang::C,
            "cpp" | "c++" | "cc" | "cxx" => Lang::Cpp,
            "php" => Lang::Php,
            "lua" => Lang::Lua,
            "luau" => Lang::Luau,
            "swift" => Lang::Swift,
            "scala" => Lang::Scala,
            "elixir" | "ex" | "exs" => Lang::Elixir,
            "haskell" | "hs" => Lang::Haskell,
            "zig" => Lang::Zig,
            "bash" | "sh" => Lang::Bash,
            "dart" => Lang::Dart,
            _ => return None,
        };
        Some(lang)
    }

    /// rg's file type for the language (`rg --type-list`): `py` for
    /// Python, `ts` for TypeScript (rg's `ts` holds `.tsx` too), ... For
    /// `tsx` and `luau`, which not every rg defines, the search defines
    /// the type itself ([`crate::rg::SearchFlags`]).
    pub fn rg_type(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::Python => "py",
            Lang::JavaScript => "js",
            Lang::TypeScript => "ts",
            Lang::Tsx => "tsx",
            Lang::Go => "go",
            Lang::Ruby => "ruby",
            Lang::Java => "java",
            Lang::Kotlin => "kotlin",
            Lang::CSharp => "csharp",
            Lang::C => "c",
            Lang::Cpp => "cpp",
            Lang::Php => "php",
            Lang::Lua => "lua",
            Lang::Luau => "luau",
            Lang::Swift => "swift",
            Lang::Scala => "scala",
            Lang::Elixir => "elixir",
            Lang::Haskell => "haskell",
            Lang::Zig => "zig",
            Lang::Bash => "sh",
            Lang::Dart => "dart",
        }
    }

    /// A short lower-case name (`rust`, `tsx`, `csharp`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::Python => "python",
            Lang::JavaScript => "javascript",
            Lang::TypeScript => "typescript",
            Lang::Tsx => "tsx",
            Lang::Go => "go",
            Lang::Ruby => "ruby",
            Lang::Java => "java",
            Lang::Kotlin => "kotlin",
            Lang::CSharp => "csharp",
            Lang::C => "c",
            Lang::Cpp => "cpp",
            Lang::Php => "php",
            Lang::Lua => "lua",
            Lang::Luau => "luau",
            Lang::Swift => "swift",
            Lang::Scala => "scala",
            Lang::Elixir => "elixir",
            Lang::Haskell => "haskell",
            Lang::Zig => "zig",
            Lang::Bash => "bash",
            Lang::Dart => "dart",
        }
    }
}

/// rg's file type for a `--type` or `--lang` NAME: a language's name or
/// alias as [`Lang::from_name`] reads it becomes rg's type for it
/// (`python` → `py`, `typescript` → `ts`); any other name is rg's own
/// (`md`, `toml`, a type of the rg config) and is kept as given.
pub fn rg_type_name(name: &str) -> String {
    Lang::from_name(name).map_or_else(|| name.to_string(), |lang| lang.rg_type().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_path_uses_the_last_extension_of_the_file_name() {
        assert_eq!(Lang::from_path(b"src/a.rs"), Some(Lang::Rust));
        assert_eq!(Lang::from_path(b"x/types.d.ts"), Some(Lang::TypeScript));
        assert_eq!(Lang::from_path(b"App.tsx"), Some(Lang::Tsx));
        assert_eq!(Lang::from_path(b"inc/x.h"), Some(Lang::Cpp));
        assert_eq!(Lang::from_path(b"dir.rs/README"), None);
        assert_eq!(Lang::from_path(b"Makefile"), None);
    }

    #[test]
    fn from_name_takes_every_name_and_the_usual_aliases() {
        for lang in Lang::ALL {
            assert_eq!(Lang::from_name(lang.name()), Some(lang));
        }
        for (alias, lang) in [
            ("ts", Lang::TypeScript),
            ("js", Lang::JavaScript),
            ("py", Lang::Python),
            ("rs", Lang::Rust),
            ("c++", Lang::Cpp),
            ("cs", Lang::CSharp),
            ("Go", Lang::Go),
        ] {
            assert_eq!(Lang::from_name(alias), Some(lang), "{alias}");
        }
        assert_eq!(Lang::from_name("cobol"), None);
    }

    #[test]
    fn regression_34_every_language_name_is_an_rg_type() {
        for (name, rg) in [
            ("python", "py"),
            ("py", "py"),
            ("typescript", "ts"),
            ("tsx", "tsx"),
            ("javascript", "js"),
            ("rust", "rust"),
            ("rb", "ruby"),
            ("c++", "cpp"),
            ("cs", "csharp"),
            ("md", "md"),
            ("toml", "toml"),
        ] {
            assert_eq!(rg_type_name(name), rg, "{name}");
        }
    }
}
