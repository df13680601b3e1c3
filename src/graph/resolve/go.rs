//! Go build constraints: which of a package's files the host builds, so
//! that a function defined once per platform (`mmap` in `bolt_unix.go`
//! and `bolt_windows.go`) is the one `go build` here would compile.

use std::path::Path;

/// Operating systems and architectures Go knows, as its file name
/// suffixes spell them (`_linux.go`, `_arm64.go`).
const GOOS: &[&str] = &[
    "aix",
    "android",
    "darwin",
    "dragonfly",
    "freebsd",
    "hurd",
    "illumos",
    "ios",
    "js",
    "linux",
    "nacl",
    "netbsd",
    "openbsd",
    "plan9",
    "solaris",
    "wasip1",
    "windows",
    "zos",
];
const GOARCH: &[&str] = &[
    "386",
    "amd64",
    "amd64p32",
    "arm",
    "armbe",
    "arm64",
    "arm64be",
    "loong64",
    "mips",
    "mipsle",
    "mips64",
    "mips64le",
    "mips64p32",
    "mips64p32le",
    "ppc",
    "ppc64",
    "ppc64le",
    "riscv",
    "riscv64",
    "s390",
    "s390x",
    "sparc",
    "sparc64",
    "wasm",
];
/// The systems the `unix` tag stands for.
const UNIX: &[&str] = &[
    "aix",
    "android",
    "darwin",
    "dragonfly",
    "freebsd",
    "hurd",
    "illumos",
    "ios",
    "linux",
    "netbsd",
    "openbsd",
    "solaris",
];

/// The host as Go names it.
fn host() -> (&'static str, &'static str) {
    let os = match std::env::consts::OS {
        "macos" => "darwin",
        os => os,
    };
    let arch = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        "x86" => "386",
        "powerpc64" => "ppc64",
        "loongarch64" => "loong64",
        arch => arch,
    };
    (os, arch)
}

/// Whether the host builds the Go file at `path`, whose `//go:build`
/// line is `constraint`: by its name's `_GOOS`/`_GOARCH` suffixes, then
/// by the expression. Tags the host does not set (custom ones, `ignore`)
/// are false, as for a plain `go build`; `cgo` and `goN.M` are true.
pub(super) fn builds_here(path: &Path, constraint: Option<&str>) -> bool {
    let (os, arch) = host();
    let tag = |t: &str| -> bool {
        t == os
            || t == arch
            || (t == "unix" && UNIX.contains(&os))
            || (t == "linux" && os == "android")
            || (t == "darwin" && os == "ios")
            || (t == "solaris" && os == "illumos")
            || t == "gc"
            || t == "cgo"
            || t.strip_prefix("go1.")
                .is_some_and(|v| v.parse::<u32>().is_ok())
    };
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let stem = stem.strip_suffix("_test").unwrap_or(stem);
    let parts: Vec<&str> = stem.split('_').collect();
    // `x_linux_amd64.go`, `x_linux.go`, `x_amd64.go`; the first part is
    // never a suffix (`linux.go` builds everywhere).
    if parts.len() >= 2 {
        let last = parts[parts.len() - 1];
        let before = parts[parts.len() - 2];
        if GOARCH.contains(&last) {
            if last != arch {
                return false;
            }
            if parts.len() >= 3 && GOOS.contains(&before) && !tag(before) {
                return false;
            }
        } else if GOOS.contains(&last) && !tag(last) {
            return false;
        }
    }
    match constraint {
        Some(expr) => Expr::new(expr).eval(&tag).unwrap_or(true),
        None => true,
    }
}

/// A `//go:build` expression, read by recursive descent:
/// `or := and ('||' and)*`, `and := not ('&&' not)*`,
/// `not := '!' not | '(' or ')' | tag`.
struct Expr<'a> {
    tokens: Vec<&'a str>,
    at: usize,
}

impl<'a> Expr<'a> {
    fn new(text: &'a str) -> Self {
        let mut tokens = Vec::new();
        let mut rest = text.trim();
        while !rest.is_empty() {
            let len = if rest.starts_with("&&") || rest.starts_with("||") {
                2
            } else if rest.starts_with(['!', '(', ')']) {
                1
            } else {
                rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                    .unwrap_or(rest.len())
                    .max(1)
            };
            tokens.push(&rest[..len]);
            rest = rest[len..].trim_start();
        }
        Expr { tokens, at: 0 }
    }

    /// The expression's value, or `None` when it does not parse.
    fn eval(mut self, tag: &dyn Fn(&str) -> bool) -> Option<bool> {
        let value = self.or(tag)?;
        (self.at == self.tokens.len()).then_some(value)
    }

    fn next(&mut self) -> Option<&'a str> {
        let token = self.tokens.get(self.at).copied();
        self.at += 1;
        token
    }

    fn peek(&self) -> Option<&'a str> {
        self.tokens.get(self.at).copied()
    }

    fn or(&mut self, tag: &dyn Fn(&str) -> bool) -> Option<bool> {
        let mut value = self.and(tag)?;
        while self.peek() == Some("||") {
            self.at += 1;
            value |= self.and(tag)?;
        }
        Some(value)
    }

    fn and(&mut self, tag: &dyn Fn(&str) -> bool) -> Option<bool> {
        let mut value = self.not(tag)?;
        while self.peek() == Some("&&") {
            self.at += 1;
            value &= self.not(tag)?;
        }
        Some(value)
    }

    fn not(&mut self, tag: &dyn Fn(&str) -> bool) -> Option<bool> {
        match self.next()? {
            "!" => Some(!self.not(tag)?),
            "(" => {
                let value = self.or(tag)?;
                (self.next()? == ")").then_some(value)
            }
            "&&" | "||" | ")" => None,
            name => Some(tag(name)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn here(name: &str, constraint: Option<&str>) -> bool {
        builds_here(Path::new(name), constraint)
    }

    #[test]
    fn file_name_suffixes_name_the_platform() {
        let (os, arch) = host();
        assert!(here(&format!("mmap_{os}.go"), None));
        assert!(here(&format!("mmap_{os}_{arch}_test.go"), None));
        assert!(!here("mmap_plan9.go", None) || os == "plan9");
        assert!(!here("mmap_s390x.go", None) || arch == "s390x");
        // A name that is only a system's builds everywhere.
        assert!(here("windows.go", None));
    }

    #[test]
    fn expressions_follow_go_s_precedence() {
        let (os, _) = host();
        assert!(here("a.go", Some(&format!("{os} && !plan9"))));
        assert!(!here("a.go", Some(&format!("!{os}"))));
        assert!(here("a.go", Some(&format!("plan9 || {os} && !ignore"))));
        assert!(!here("a.go", Some(&format!("(plan9 || {os}) && ignore"))));
        assert!(!here("a.go", Some("ignore")));
        assert!(here("a.go", Some("go1.18")));
        // What does not parse does not rule a file out.
        assert!(here("a.go", Some("linux &&")));
    }
}
