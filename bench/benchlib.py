"""Shared pieces of scout's benchmark scripts (Python 3 standard library only).

Owns: running a command with a timeout (bytes in, bytes out, wall time),
deriving queries from a tree, the definition oracle (universal-ctags, a
declaration regex per language for Swift, Scala, Zig and Dart, or a keyword
regex run by rg), and parsing scout's and rg's outputs.
Leaves to the scripts: what to measure and how to report it.

All outputs are handled as bytes; paths are bytes relative to the searched
tree, without a leading "./".
"""

import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import tempfile
import time

DEFAULT_TIMEOUT = 60.0

# ---------------------------------------------------------------- processes


class Run:
    """Outcome of one command: exit code (None on timeout), stdout and
    stderr bytes, wall seconds."""

    __slots__ = ("argv", "code", "out", "err", "secs", "timed_out")

    def __init__(self, argv, code, out, err, secs, timed_out=False):
        self.argv, self.code, self.out, self.err = argv, code, out, err
        self.secs, self.timed_out = secs, timed_out


def run(argv, cwd, env=None, timeout=DEFAULT_TIMEOUT, shell=False):
    """Runs argv (a list, or a string when shell=True) in cwd, stdin closed.
    Never raises for timeouts or a missing program: the Run says so."""
    start = time.perf_counter()
    try:
        p = subprocess.run(argv, cwd=cwd, env=env, shell=shell,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
        return Run(argv, p.returncode, p.stdout, p.stderr,
                   time.perf_counter() - start)
    except subprocess.TimeoutExpired as e:
        return Run(argv, None, e.stdout or b"", e.stderr or b"",
                   time.perf_counter() - start, timed_out=True)
    except OSError as e:
        return Run(argv, 127, b"", str(e).encode(), time.perf_counter() - start)


def scout_env(state_dir):
    """Environment for scout runs: no agent session (so nothing is
    remembered between runs) and private cache/state directories."""
    env = dict(os.environ)
    for k in ("SCOUT_SESSION_ID", "CLAUDE_CODE_SESSION_ID", "CODEX_THREAD_ID"):
        env.pop(k, None)
    env["XDG_CACHE_HOME"] = os.path.join(state_dir, "cache")
    env["XDG_STATE_HOME"] = os.path.join(state_dir, "state")
    env.pop("NO_COLOR", None)
    return env


def find_scout(explicit=None):
    """--scout PATH, else `scout` on PATH, else the release build."""
    if explicit:
        return os.path.abspath(explicit) if os.sep in explicit else explicit
    on_path = shutil.which("scout")
    if on_path:
        return on_path
    for cand in ("/work/main/target/release/scout",
                 os.path.expanduser("~/.local/bin/scout")):
        if os.access(cand, os.X_OK):
            return cand
    return "scout"


# ------------------------------------------------------------------ queries


class Query:
    """One search. kind: 'ident' (literal identifier), 'regex', 'icase'
    (literal, case-insensitive). files: files rg finds for it. name: the
    identifier whose definitions the oracle looks up (an icase query's
    name in the tree's own case)."""

    __slots__ = ("text", "kind", "files", "stratum", "name")

    def __init__(self, text, kind, files=None, stratum=None, name=None):
        self.text, self.kind, self.files, self.stratum = text, kind, files, stratum
        self.name = name if name is not None else (text if kind == "ident" else None)

    @property
    def literal(self):
        return self.kind in ("ident", "icase")

    def rg_flags(self):
        f = []
        if self.literal:
            f.append("-F")
        if self.kind == "icase":
            f.append("-i")
        return f

    def scout_flags(self):
        return ["-i"] if self.kind == "icase" else []

    def label(self):
        return ("-i " if self.kind == "icase" else "") + self.text

    def to_json(self):
        return {"query": self.text, "kind": self.kind, "files": self.files,
                "stratum": self.stratum}


STRATA = [("1-5", 1, 5), ("6-50", 6, 50), ("51-500", 51, 500),
          ("501+", 501, None)]


def stratum_of(n):
    for name, lo, hi in STRATA:
        if n >= lo and (hi is None or n <= hi):
            return name
    return None


KEYWORDS = set("""
and as assert async await break case catch class const continue def default
defer del delete do elif else enum except export extends false final finally
for from func function global goto if impl import in instanceof interface is
lambda let loop match mod module mut new nil none nonlocal not null or package
pass private protected pub public raise return self static struct super switch
this throw throws trait true try type typeof union unsafe use var void where
while with yield True False None char bool byte int long short float double
string str usize isize u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 Self crate extern
unsigned signed sizeof typedef define include ifdef ifndef endif pragma undef
struct readonly declare abstract implements namespace keyof infer never any
unknown object number boolean symbol bigint undefined require exports
""".split())

TOKEN_RE = re.compile(rb"[A-Za-z_][A-Za-z0-9_]{3,}")
DEFCTX_RE = re.compile(rb"\b(?:def|class|fn|func|function|struct|enum|trait"
                       rb"|interface|type|impl|const|let|var|macro_rules!)"
                       rb"\s+\*?([A-Za-z_][A-Za-z0-9_]{3,})")
SKIP_EXT = (b".map", b".json", b".lock", b".svg", b".min.js", b".txt",
            b".md", b".csv", b".pyc", b".snap")

# Regexes with a 3-character literal anchor (so scout ranks them); tried in
# this order, the first few that match anything are used.
REGEX_POOL = [r"get\w+Name", r"def \w+_cache", r"class \w+Error",
              r"fn \w+_with", r"\w+_test\b", r"is[A-Z]\w+\(", r"set\w+Value",
              r"func \w+Handler", r"import \w+ as \w+", r"\w+Exception\b",
              r"to_\w+\(", r"new [A-Z]\w+Error"]

# Anchorless regexes: scout must pass them through (I1).
ANCHORLESS = [r"[a-z]{2,}", r"\w+\s*\(", r".", r"[A-Z]\w*", r"\d+", r"\s+$",
              r"(a|b)c", r"x{2}", r"[0-9a-f]{8}", r"^\s*#", r"\bi[fn]\b"]


def junk_token(tok):
    """Hashes, hex numbers and escapes are not what anyone looks up."""
    digits = sum(c in b"0123456789" for c in tok)
    return digits * 3 > len(tok) or (digits > 0 and
                                     HEXISH_RE.match(tok) is not None)


HEXISH_RE = re.compile(rb"^(?:0x|u|x)?[0-9a-fA-F]+$")


def rg_files(repo, timeout=DEFAULT_TIMEOUT * 4):
    """Files rg would search, sorted, relative, without './'."""
    r = run(["rg", "--files", "."], cwd=repo, timeout=timeout)
    files = [strip_dot(p) for p in r.out.split(b"\n") if p]
    files.sort()
    return files


def strip_dot(p):
    return p[2:] if p.startswith(b"./") else p


def _stable_key(seed, token):
    return hashlib.sha1(("%s\0" % seed).encode() + token).digest()


def count_files(repo, q, timeout=DEFAULT_TIMEOUT):
    """Number of files rg finds for the query (same flags as the search)."""
    r = run(["rg", "-l"] + q.rg_flags() + ["-e", q.text, "."], cwd=repo,
            timeout=timeout)
    if r.timed_out:
        return None
    return sum(1 for p in r.out.split(b"\n") if p)


def derive_queries(repo, n, seed=1, n_regex=None, n_icase=None,
                   sample_files=400, log=None, jobs=2, exact=True):
    """Identifier queries stratified by how many files rg finds them in,
    plus regex and case-insensitive ones. Deterministic for (tree, n, seed).

    Candidates are tokens of a seeded sample of the tree's files; a token's
    document frequency in the sample estimates its stratum, and each
    chosen candidate is then counted exactly with `rg -l -F`."""
    from concurrent.futures import ThreadPoolExecutor

    n_regex = max(2, n // 10) if n_regex is None else n_regex
    n_icase = max(2, n // 10) if n_icase is None else n_icase
    n_ident = max(0, n - n_regex - n_icase)
    per = [n_ident // 4 + (1 if i < n_ident % 4 else 0) for i in range(4)]
    # Rare strata are filled first from the fullest estimate; 501+ may be
    # short on small trees, the rest goes to the other strata.
    files = rg_files(repo)
    if not files:
        raise SystemExit("no searchable files under %s" % repo)
    rnd = random.Random(seed)
    sample = sorted(rnd.sample(files, min(sample_files, len(files))))
    df = {}
    defined = set()
    for rel in sample:
        if rel.lower().endswith(SKIP_EXT):
            continue
        try:
            with open(os.path.join(repo, os.fsdecode(rel)), "rb") as fh:
                data = fh.read(1 << 20)
        except OSError:
            continue
        if b"\0" in data[:8192]:
            continue
        # Minified or generated lines (source maps, bundles) give junk tokens.
        text = b"\n".join(l for l in data.split(b"\n") if len(l) <= 300)
        defined.update(DEFCTX_RE.findall(text))
        for tok in set(TOKEN_RE.findall(text)):
            if tok.decode() in KEYWORDS or len(tok) > 40 or junk_token(tok):
                continue
            df[tok] = df.get(tok, 0) + 1
    scale = len(files) / max(1, len(sample))
    buckets = {name: [] for name, _, _ in STRATA}
    for tok, d in df.items():
        est = d * scale if d > 1 else 1
        s = stratum_of(max(1, int(est)))
        buckets[s].append(tok)
    for s in buckets:
        # Names seen in a definition context come first, two for one:
        # agents mostly look up things that are defined somewhere.
        toks = sorted(buckets[s], key=lambda t: _stable_key(seed, t))
        a = [t for t in toks if t in defined]
        b = [t for t in toks if t not in defined]
        merged = []
        while a or b:
            merged += a[:2] + b[:1]
            a, b = a[2:], b[1:]
        buckets[s] = merged

    want = dict(zip([s for s, _, _ in STRATA], per))
    chosen = {s: [] for s in want}
    seen = set()
    # Walk candidates round-robin over estimated strata, counting exactly,
    # until each stratum is full or the checks budget is spent.
    order = []
    iters = {s: iter(b) for s, b in buckets.items()}
    budget = max(4 * n_ident, 60) if exact else n_ident
    while len(order) < budget and iters:
        for s in list(iters):
            try:
                order.append(next(iters[s]))
            except StopIteration:
                del iters[s]
    pos = 0
    if not exact:
        # No exact counts: round-robin over the estimated strata.
        for t in order:
            if sum(len(v) for v in chosen.values()) >= n_ident:
                break
            s = stratum_of(max(1, int(df[t] * scale if df[t] > 1 else 1)))
            q = Query(t.decode(), "ident", None, "~" + s)
            chosen[s].append(q)
            seen.add(q.text)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        while exact and pos < len(order) and any(len(chosen[s]) < want[s] for s in want):
            batch = order[pos:pos + 8]
            pos += len(batch)
            qs = [Query(t.decode(), "ident") for t in batch]
            for q, c in zip(qs, pool.map(lambda q: count_files(repo, q), qs)):
                if not c:
                    continue
                s = stratum_of(c)
                if len(chosen[s]) < want[s] and q.text not in seen:
                    q.files, q.stratum = c, s
                    chosen[s].append(q)
                    seen.add(q.text)
    idents = [q for s, _, _ in STRATA for q in chosen[s]]
    if log:
        log("derived %d identifier queries (%s) from %d sampled files of %d; "
            "%d exact counts" % (len(idents), ", ".join(
                "%s:%d/%d" % (s, len(chosen[s]), want[s]) for s in want),
                len(sample), len(files), pos))

    regexes = []
    for pat in REGEX_POOL:
        if len(regexes) >= n_regex:
            break
        q = Query(pat, "regex")
        c = count_files(repo, q)
        if c:
            q.files, q.stratum = c, stratum_of(c)
            regexes.append(q)

    icase = []
    # Case-insensitive: lower-cased mixed-case identifiers from the chosen
    # ones (spread over strata), then from other candidates.
    pool_i = [q.text for q in idents if q.text.lower() != q.text]
    pool_i += [t.decode() for t in order if t.decode().lower() != t.decode()]
    for t in pool_i:
        if len(icase) >= n_icase:
            break
        low = t.lower()
        if any(q.text == low for q in icase):
            continue
        q = Query(low, "icase", name=t)
        c = count_files(repo, q)
        if c:
            q.files, q.stratum = c, stratum_of(c)
            icase.append(q)
    return idents + regexes + icase


# ------------------------------------------------------------------- oracle
#
# The oracle says where each identifier is defined, independently of
# scout: universal-ctags for the languages it parses, a declaration regex
# per language (below) for Swift, Scala, Zig and Dart, which ctags 5.9 does
# not parse, and the keyword regex DEF_WORDS when ctags is missing or
# `--oracle regex` asks for it. Every answer is {identifier: {(path bytes,
# 1-based line)}}.

DEF_KINDS = {"class", "function", "func", "method", "struct", "enum",
             "interface", "typedef", "type", "talias", "alias",
             "implementation", "macro", "union", "generator", "getter",
             "setter", "constructor", "singletonMethod", "methodSpec",
             "trait", "module", "namespace", "member"}
# Kinds that are definitions in one language only. Elixir: defcallback and
# @callback, defdelegate, defexception, defguard(p), operators (defmacro
# a <<< b), defprotocol, Record.defrecord. Not Elixir's `test` (an ExUnit
# test's name is a string).
LANG_DEF_KINDS = {"Elixir": {"callback", "delegate", "exception", "guard",
                             "operator", "protocol", "record"}}
# Kinds that mean something else in some languages: Python's namespace is
# an import alias, C/C++/Go members are fields, and Elixir's implementation
# (`defimpl Enumerable, for: MapSet`) is named after the protocol it
# implements, which it does not define.
NOT_DEF = {("Python", "namespace"), ("C", "member"), ("C++", "member"),
           ("Go", "member"), ("Python", "module"), ("Elixir", "implementation")}
# Tags whose source line must look like the definition: ctags 5.9's Sh
# parser also tags words of strings ("alias for" in a help text, "function
# call :" in an error message) as aliases and functions. {name} is the
# escaped tag name.
TAG_LINE = {("Sh", "function"): r"^\s*(?:function\s+{name}\b|{name}\s*\(\s*\))",
            ("Sh", "alias"): r"^\s*alias\s+{name}="}
# Languages whose ctags parser reads a line at a time and so tags the
# examples in documentation heredocs (@doc """ ... defmodule MyApp ...):
# 16% of ctags 5.9's Elixir definitions in elixir-lang/elixir. Tags inside
# a multi-line string are dropped.
HEREDOC_LANGS = {"Elixir"}
# Haskell's module tag is named after the first segment of the module's
# name (`module PostgREST.Query` gives "PostgREST"): the oracle renames it
# to the last, as ctags names Elixir's modules.
HASKELL_MODULE_RE = re.compile(r"^\s*module\s+([\w.']+)")

# Languages the declaration regexes know, by file extension. Swift, Scala,
# Zig and Dart are parsed by them alone whenever ctags does not know the
# language; Haskell and Elixir only add what ctags 5.9 misses there.
DECL_EXTS = {".swift": "Swift", ".scala": "Scala", ".sbt": "Scala",
             ".sc": "Scala", ".zig": "Zig", ".dart": "Dart",
             ".hs": "Haskell", ".ex": "Elixir", ".exs": "Elixir"}
SUPPLEMENTS = {"Haskell", "Elixir"}


def decl_language(path):
    """The declaration-regex language of a path (bytes or str), or None."""
    ext = os.path.splitext(os.fsdecode(path))[1]
    return DECL_EXTS.get(ext)


def oracle_files(repo, idents, timeout=DEFAULT_TIMEOUT * 4):
    """Files that mention any identifier as a word (one rg call)."""
    if not idents:
        return []
    argv = ["rg", "-l", "-F", "-w"]
    for t in idents:
        argv += ["-e", t]
    r = run(argv + ["."], cwd=repo, timeout=timeout)
    return sorted(strip_dot(p) for p in r.out.split(b"\n") if p)


def find_ctags():
    """Path of universal-ctags, or None (absent, or another ctags)."""
    ctags = shutil.which("ctags")
    if not ctags:
        return None
    v = run([ctags, "--version"], cwd=".")
    return ctags if b"Universal Ctags" in v.out else None


def ctags_languages(ctags):
    """Names of the languages this ctags parses (disabled ones left out)."""
    r = run([ctags, "--list-languages"], cwd=".")
    return {l.strip() for l in r.out.decode(errors="replace").split("\n")
            if l.strip() and "[disabled]" not in l}


def ctags_defs(repo, ctags, files, want):
    """({identifier: {(path, line)}}, {language: definitions}) from
    universal-ctags run over `files`, definition kinds only."""
    defs, langs = {}, {}
    code = {}  # path: its code lines, for HEREDOC_LANGS
    if not files:
        return defs, langs
    with tempfile.NamedTemporaryFile("wb", delete=False) as fh:
        fh.write(b"\n".join(files) + b"\n")
        listing = fh.name
    try:
        r = run([ctags, "--output-format=json", "--fields=+nl", "-f", "-",
                 "-L", listing], cwd=repo, timeout=DEFAULT_TIMEOUT * 10)
    finally:
        os.unlink(listing)
    for raw in r.out.split(b"\n"):
        if not raw.startswith(b"{"):
            continue
        try:
            tag = json.loads(raw)
        except ValueError:
            continue
        name, kind, lang = tag.get("name"), tag.get("kind"), tag.get("language")
        if "line" not in tag or (lang, kind) in NOT_DEF:
            continue
        if kind not in DEF_KINDS and kind not in LANG_DEF_KINDS.get(lang, ()):
            continue
        pattern = tag.get("pattern", "")
        pattern = pattern[2:-2] if pattern.startswith("/^") else pattern
        if (lang, kind) == ("Haskell", "module"):
            m = HASKELL_MODULE_RE.match(pattern)
            name = m.group(1).rsplit(".", 1)[-1] if m else None
        if name not in want:
            continue
        check = TAG_LINE.get((lang, kind))
        if check and not re.match(check.format(name=re.escape(name)), pattern):
            continue
        path = strip_dot(os.fsencode(tag.get("path", "")))
        if lang in HEREDOC_LANGS:
            if path not in code:
                text = read_text(repo, path) or ""
                code[path] = {no for no, _ in code_lines(text, TRIPLE_QUOTES[lang])}
            if int(tag["line"]) not in code[path]:
                continue
        defs.setdefault(name, set()).add((path, int(tag["line"])))
        langs[lang] = langs.get(lang, 0) + 1
    return defs, langs


DEF_WORDS = (r"(?:def|class|fn|func|function|struct|enum|trait|interface|type"
             r"|impl|union|module|mod|typedef|macro_rules!)")


def keyword_defs(repo, idents, skip_exts=()):
    """{identifier: {(path, line)}}: lines where a definition keyword
    precedes the name, files ending in `skip_exts` left out (one rg call
    per identifier)."""
    defs = {}
    globs = []
    for ext in sorted(skip_exts):
        globs += ["-g", "!*" + ext]
    for t in idents:
        pat = (r"(?:^|[^\w.])%s(?:<[^>]*>)?\s+(?:\([^)]*\)\s*)?\*?%s\b"
               % (DEF_WORDS, re.escape(t)))
        r = run(["rg", "-n", "--no-heading"] + globs + ["-e", pat, "."],
                cwd=repo)
        found = {(p, n) for p, n, _ in parse_plain(r.out)}
        if found:
            defs[t] = found
    return defs


# --------------------------------------------- declaration regexes
#
# Written from each language's grammar, not from scout's parsers. A file is
# read line by line; each line is matched on its own (a declaration's name
# is on its first line in formatted code). A line's *parent* is the nearest
# earlier line with less indentation, skipping blank lines, comments,
# preprocessor and attribute-only lines, the insides of multi-line strings
# and continuation lines (starting with a closer `)]}`, an opener `{`, an
# operator, `.`, `,`, `:`, `where`, `extends`, `with`). Functions, methods
# and types count wherever they are; a binding (let, var, val, const,
# final) counts only at file level (no parent) or as a member of a type
# (its parent declares a type), so locals inside function bodies and
# closures do not. Enum cases are not definitions: ctags' enumerator kinds
# (C's, Rust's, Java's enumConstant) are left out of DEF_KINDS for every
# other language, and scout counts no enum variant as a definition; the
# parsers still read a case line, so that it is not taken for something
# else (a Dart value `active('a'),` for a method).

# A declaration parser takes (the stripped line, its parent's scope) and
# returns (names declared, this line's scope). A scope is None for a line
# that opens no type, else (kind, name) with kind "type", "enum" or
# "class"; the parent is FILE_LEVEL at file level.
FILE_LEVEL = ("file", None)

SKIP_LINE_RE = re.compile(
    r"^(?://|/\*|\*|--|\{-|#|\\\\|@[\w.]+(?:\(.*\))?\s*$"
    r"|[)\]}{.,:;?|&+*/%<>=!~^-]|where\b|extends\b|with\b|implements\b)")
# A name, bare or in backquotes (Swift's `default`, Scala's `type`).
WORD = r"(?:`(?=[A-Za-z_]\w*`))?([A-Za-z_]\w*)`?"


def strip_nested(text):
    """text without string literals and without what bracket pairs hold."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'', '""', text)
    prev = None
    while prev != text:
        prev = text
        text = re.sub(r"\([^()]*\)|\[[^\[\]]*\]|<[^<>]*>|\{[^{}]*\}", "", text)
    return text


def binding_allowed(parent):
    """A binding counts at file level (FILE_LEVEL) or in a type (a scope)."""
    return parent is not None


def scope_kind(parent):
    """"file", "type", "enum", "class", or None (a body, not a type)."""
    return parent[0] if parent else None


SWIFT_ATTR = r"@[\w.]+(?:\((?:[^()]|\([^()]*\))*\))?"
SWIFT_MODS = (r"(?:public|private|fileprivate|internal|open|package)(?:\(set\))?"
              r"|static|class|final|override|mutating|nonmutating|lazy|weak"
              r"|unowned(?:\((?:safe|unsafe)\))?|convenience|required|dynamic"
              r"|indirect|nonisolated(?:\(unsafe\))?|optional|prefix|postfix"
              r"|infix|distributed|consuming|borrowing|isolated|__consuming")
SWIFT_DECL_RE = re.compile(
    r"^(?:(?:%s|%s)\s+)*(func|class|struct|enum|protocol|actor|extension"
    r"|typealias|associatedtype|let|var|case|init|macro)\b\s*(.*)$"
    % (SWIFT_ATTR, SWIFT_MODS))


def swift_declares(line, parent):
    m = SWIFT_DECL_RE.match(line)
    if not m:
        return [], None
    kw, rest = m.group(1), m.group(2)
    if kw == "func" or kw == "macro":
        n = re.match(WORD + r"\s*[<(]", rest)
        return ([n.group(1)] if n else []), None
    if kw == "init":
        return (["init"] if re.match(r"[?!]?\s*[<(]", rest) else []), None
    if kw in ("let", "var"):
        n = re.match(WORD + r"\s*(?:[:=,{]|$)", rest)
        return ([n.group(1)] if n and binding_allowed(parent) else []), None
    if kw == "case":
        return [], None
    if kw == "extension":
        n = re.match(r"([\w.]+)", rest)
        name = n.group(1).rsplit(".", 1)[-1] if n else None
        return ([name] if name else []), ("type", name)
    n = re.match(WORD, rest)
    if not n:
        return [], None
    if kw in ("typealias", "associatedtype"):
        return [n.group(1)], None
    return [n.group(1)], ("enum" if kw == "enum" else "type", n.group(1))


SCALA_MODS = (r"(?:(?:private|protected)(?:\[[\w.]+\])?|override|final|sealed"
              r"|abstract|implicit|lazy|inline|opaque|transparent|open|infix"
              r"|case|erased|@[\w.]+(?:\((?:[^()]|\([^()]*\))*\))?)")
SCALA_DECL_RE = re.compile(
    r"^(?:%s\s+)*(def|val|var|class|trait|object|type|enum|given"
    r"|package\s+object)\s+(.*)$" % SCALA_MODS)


def scala_declares(line, parent):
    m = SCALA_DECL_RE.match(line)
    if not m:
        return [], None
    kw, rest = m.group(1), m.group(2)
    if kw == "def":
        n = re.match(WORD, rest)
        return ([n.group(1)] if n and n.group(1) != "this" else []), None
    if kw in ("val", "var"):
        n = re.match(WORD + r"\s*(?:[:=,]|$)", rest)
        return ([n.group(1)] if n and binding_allowed(parent) else []), None
    if kw == "given":
        n = re.match(WORD + r"\s*(?:\[[^\]]*\])?\s*(?:\(using[^)]*\)\s*)?:", rest)
        return ([n.group(1)] if n else []), None
    n = re.match(WORD, rest)
    if not n:
        return [], None
    if kw == "type":
        return [n.group(1)], None
    return [n.group(1)], ("enum" if kw == "enum" else "type", n.group(1))


ZIG_PREFIX = (r"^(?:pub\s+)?(?:(?:export|extern(?:\s+\"[^\"]*\")?|inline"
              r"|noinline|threadlocal|comptime)\s+)*")
ZIG_FN_RE = re.compile(ZIG_PREFIX + r"fn\s+([A-Za-z_]\w*)\s*\(")
ZIG_BINDING_RE = re.compile(ZIG_PREFIX + r"(?:const|var)\s+([A-Za-z_]\w*)\s*"
                            r"(?::[^=;]*)?(?:=\s*(.*)|;)")
# `const std = @import("std");` and `const Allocator = std.mem.Allocator;`
# are imports under another name, not definitions.
ZIG_ALIAS_RE = re.compile(r"^(?:@import\([^)]*\)(?:\.\w+)*|[A-Za-z_]\w*(?:\.\w+)+)"
                          r"\s*;")
# A container whose body starts on the next line (`struct { bool, u8 }{`
# in a `for` is a literal's type, closed on its own line).
ZIG_CONTAINER_RE = re.compile(r"\b(struct|enum|union|opaque)\b\s*(\([^)]*\))?"
                              r"\s*\{[^{}]*$")


def zig_declares(line, parent):
    m = ZIG_FN_RE.match(line)
    if m:
        return [m.group(1)], None
    m = ZIG_BINDING_RE.match(line)
    names = []
    if m and binding_allowed(parent) and not ZIG_ALIAS_RE.match(m.group(2) or ""):
        names.append(m.group(1))
    c = ZIG_CONTAINER_RE.search(line)
    if c:
        enum = c.group(1) == "enum"
        return names, ("enum" if enum else "type", m.group(1) if m else None)
    return names, None


DART_TYPE = r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)?(?:<[^;{}=()]*>)?\??"
DART_ANNOTATIONS = r"^(?:@[\w.]+(?:\((?:[^()]|\([^()]*\))*\))?\s+)*"
DART_TYPE_DECL_RE = re.compile(
    r"^(?:(?:abstract|base|final|interface|sealed|mixin|augment|macro)\s+)*"
    r"(class|mixin|enum|extension\s+type|extension)\s+(?:const\s+)?([\w$]+)")
DART_TYPEDEF_RE = re.compile(r"^typedef\s+(?:%s\s+)?([\w$]+)\s*[=(<]" % DART_TYPE)
DART_VAR_RE = re.compile(
    r"^((?:(?:static|external|covariant|abstract|augment|late|final|const|var)\s+)+)"
    r"(?:(%s)\s+)?([\w$]+)\s*(?:[=;,]|$)" % DART_TYPE)
DART_ACCESSOR_RE = re.compile(
    r"^(?:(?:static|external|abstract|augment|covariant)\s+)*(?:(%s)\s+)?"
    r"(get|set)\s+([\w$]+)\s*(\(|=>|\{|;|async|$)" % DART_TYPE)
DART_CTOR_RE = re.compile(r"^(?:(?:const|factory|external|augment)\s+)*"
                          r"([\w$]+)(?:\.([\w$]+))?\s*\(")
DART_ENUM_VALUE_RE = re.compile(r"^([\w$]+)\s*(?:<[^>]*>)?\s*(?:\(.*)?(?:[,;]\s*)?"
                                r"(?://.*)?$")
DART_FUNC_RE = re.compile(
    r"^(?:(?:static|external|abstract|augment)\s+)*(?:(%s)\s+)?([\w$]+)\s*"
    r"(?:<[^()]*>)?\s*\(" % DART_TYPE)
# Words that start a statement or an expression, so `WORD NAME(` after them
# is a call, not a declaration; and names that are not declarations.
DART_NOT_TYPE = set("""return await throw new const final var else case yield
is as in if for while switch do try catch on assert late super this get set
operator factory import export part library typedef class enum mixin
extension with implements required covariant when default sync async
external static abstract print""".split())
DART_NOT_NAME = set("""if for while switch catch return assert super this
new throw await yield on when print operator Function""".split())


def dart_declares(line, parent):
    line = re.sub(DART_ANNOTATIONS, "", line)
    at_member_level = binding_allowed(parent)
    m = DART_TYPE_DECL_RE.match(line)
    if m:
        kw, name = m.group(1), m.group(2)
        if kw == "extension" and name == "on":
            return [], ("type", None)
        # Classes and extension types have constructors; mixins and
        # extensions do not.
        scope = {"enum": "enum", "class": "class", "extension type": "class"}.get(
            " ".join(kw.split()), "type")
        return [name], (scope, name)
    m = DART_TYPEDEF_RE.match(line)
    if m:
        return [m.group(1)], None
    if scope_kind(parent) == "enum":
        # An enhanced enum's value (`name`, `name,`, `name(args),`,
        # `name;`): not a definition, nor a method.
        n = DART_ENUM_VALUE_RE.match(line)
        if n and n.group(1) not in DART_NOT_TYPE:
            return [], None
    m = DART_VAR_RE.match(line)
    if m and set(m.group(1).split()) & {"static", "late", "final", "const", "var"}:
        ok = at_member_level and m.group(3) not in DART_NOT_NAME \
            and (m.group(2) or "") not in DART_NOT_TYPE
        return ([m.group(3)] if ok else []), None
    m = DART_ACCESSOR_RE.match(line)
    if m and (m.group(1) or "") not in DART_NOT_TYPE:
        getter_ok = m.group(2) == "set" or m.group(4) != "("
        return ([m.group(3)] if getter_ok else []), None
    if scope_kind(parent) in ("class", "enum"):
        m = DART_CTOR_RE.match(line)
        if m and m.group(1) == parent[1]:
            return [m.group(2) or m.group(1)], None
    m = DART_FUNC_RE.match(line)
    if m:
        typ, name = m.group(1), m.group(2)
        if name in DART_NOT_NAME or (typ and typ.rstrip("?") in DART_NOT_TYPE):
            return [], None
        if typ is None and not at_member_level:
            return [], None  # `foo(x);` in a body is a call
        if typ and not at_member_level and line.endswith((",", ")")):
            return [], None  # a parameter of function type
        return [name], None
    return [], None


HASKELL_CLASS_RE = re.compile(r"^class\s+(?:.*=>\s*)?([A-Z][\w']*)")
HASKELL_SIG_RE = re.compile(r"^([a-z_][\w']*(?:\s*,\s*[a-z_][\w']*)*)\s*::")


def haskell_declares(line, parent):
    """What ctags 5.9 leaves out of Haskell: type classes and the method
    signatures of their bodies."""
    m = HASKELL_CLASS_RE.match(line)
    if m and parent is FILE_LEVEL:
        return [m.group(1)], ("class", m.group(1))
    if scope_kind(parent) == "class":
        m = HASKELL_SIG_RE.match(line)
        if m:
            return [n.strip() for n in m.group(1).split(",")], None
    return [], None


ELIXIR_GUARD_RE = re.compile(r"^defguardp?\s+([a-z_]\w*[?!]?)")
ELIXIR_RECORD_RE = re.compile(r"^(?:Record\.)?defrecordp?\s*\(?\s*:([a-z_]\w*)")


def elixir_declares(line, parent):
    """What ctags 5.9 leaves out of Elixir: about half of the defguard(p)
    lines and the defrecord(p) calls written without `Record.`."""
    m = ELIXIR_GUARD_RE.match(line) or ELIXIR_RECORD_RE.match(line)
    return ([m.group(1)] if m else []), None


DECLARES = {"Swift": swift_declares, "Scala": scala_declares,
            "Zig": zig_declares, "Dart": dart_declares,
            "Haskell": haskell_declares, "Elixir": elixir_declares}
# Multi-line string delimiters, whose insides are not code.
TRIPLE_QUOTES = {"Swift": ('"""',), "Scala": ('"""',), "Dart": ('"""', "'''"),
                 "Elixir": ('"""', "'''")}


def code_lines(text, quotes=()):
    """Yields (1-based line number, line without its newline) of the lines
    of `text` (str) that are code: not inside a multi-line string (opened
    and closed by one of `quotes`, such as triple double quotes),
    nor inside a /* */ comment that spans lines. A line that opens a
    string is code."""
    in_string = in_comment = None
    for no, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if in_string:
            if stripped.count(in_string) % 2:
                in_string = None
            continue
        if in_comment:
            in_comment = "*/" not in stripped
            continue
        if stripped.startswith("/*") and "*/" not in stripped:
            in_comment = True
            continue
        in_string = next((q for q in quotes if stripped.count(q) % 2), None)
        yield no, line


def scan_declarations(text, language):
    """Yields (1-based line, name) of every declaration of `text` (str) in
    `language`, by the parent rule described above. Tabs count 4 columns."""
    declares = DECLARES[language]
    stack = []  # (indent, scope) of possible parents, indents increasing
    for no, line in code_lines(text, TRIPLE_QUOTES.get(language, ())):
        line = line.expandtabs(4)
        stripped = line.strip()
        if not stripped or SKIP_LINE_RE.match(stripped):
            continue
        indent = len(line) - len(line.lstrip())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1] if stack else FILE_LEVEL
        names, scope = declares(stripped, parent)
        for name in names:
            yield no, name
        stack.append((indent, scope))


def read_text(repo, rel):
    """A file of the tree as str (UTF-8, bad bytes replaced), or None."""
    try:
        with open(os.path.join(os.fsencode(repo), rel), "rb") as fh:
            return fh.read().decode("utf-8", errors="replace")
    except OSError:
        return None


def declaration_defs(repo, files, want):
    """({identifier: {(path, line)}}, {language: definitions}) from the
    declaration regexes over `files` (each of a DECL_EXTS language)."""
    defs, langs = {}, {}
    for rel in files:
        language = decl_language(rel)
        text = read_text(repo, rel)
        if text is None:
            continue
        for no, name in scan_declarations(text, language):
            if name in want:
                defs.setdefault(name, set()).add((rel, no))
                langs[language] = langs.get(language, 0) + 1
    return defs, langs


def merge_defs(into, more):
    for name, places in more.items():
        into.setdefault(name, set()).update(places)
    return into


def build_oracle(repo, idents, use="auto", log=None):
    """Returns (name of the oracle used, {identifier: {(path, line)}}),
    every identifier a key.

    use: "auto" (ctags when installed, else the keyword regex), "ctags"
    (exit when it is missing), "regex" (no ctags). Either way a Swift,
    Scala, Zig or Dart file whose language ctags does not list goes to its
    declaration regex; with ctags, Haskell and Elixir files get the
    declaration regex's additions too."""
    ctags = find_ctags() if use in ("auto", "ctags") else None
    if use == "ctags" and not ctags:
        raise SystemExit("universal-ctags not found")
    known = ctags_languages(ctags) if ctags else set()
    want = set(idents)
    files = oracle_files(repo, idents)

    def by_regex(path):
        lang = decl_language(path)
        return lang is not None and lang not in SUPPLEMENTS and lang not in known
    by_decl = [f for f in files if by_regex(f)]
    if ctags:
        rest = [f for f in files if not by_regex(f)]
        defs, tagged = ctags_defs(repo, ctags, rest, want)
        extra = [f for f in rest if decl_language(f) in SUPPLEMENTS]
        more, added = declaration_defs(repo, extra, want)
        merge_defs(defs, more)
        first = "universal-ctags"
    else:
        skip = {e for e, l in DECL_EXTS.items() if l not in SUPPLEMENTS}
        defs, tagged, added = keyword_defs(repo, idents, skip), {}, {}
        first = "keyword-regex"
    merge_defs(defs, declaration_defs(repo, by_decl, want)[0])
    if log:
        def names(langs):
            return "/".join(sorted(langs))
        said = first + (" for %s files" % names(tagged) if tagged else "")
        if added:
            said += " (with declaration-regex additions for %s)" % names(added)
        if by_decl:
            said += ", declaration regex for %s files" % names(
                {decl_language(f) for f in by_decl})
        log("oracle: %s; %d files; %d of %d identifiers have a definition"
            % (said, len(files), sum(1 for t in idents if defs.get(t)),
               len(idents)))
    name = first + (" + declaration-regex" if by_decl else "")
    return name, {t: defs.get(t, set()) for t in idents}


# ------------------------------------------------------------------ parsing

PLAIN_RE = re.compile(rb"^(.+?):(\d+):")
HEADER_RE = re.compile(rb"^query: .*?\bhits=(\d+) files=(\d+)")
SHOWN_RE = re.compile(rb"\bshown=(\d+)")
FILE_RE = re.compile(rb"^(\S.*?)  \((\d+)x\)((?: \[[a-z]+\])*)$")
QUOTE_RE = re.compile(rb"^\s+(\d+): (.*)$", re.S)
CUT_RE = re.compile(rb"^(.*) \[cut (\d+) of (\d+) bytes\]$", re.S)
HEADING_RE = re.compile(rb"^ +\S.* \(\d+-\d+\)$")
ELLIPSIS = "\u2026".encode()
MS_RE = re.compile(rb"\b\d+ms\b")


def split_lines(out):
    lines = out.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def parse_plain(out, exists=None):
    """Yields (path, line, text) from `path:line:text` lines. A path may
    hold ':digits:'; when `exists` (a callable on the path) is given, the
    first split naming an existing file wins."""
    for raw in split_lines(out):
        m = PLAIN_RE.match(raw)
        if not m:
            continue
        path, num, rest = m.group(1), m.group(2), raw[m.end():]
        if exists is not None and not exists(strip_dot(path)):
            for mm in re.finditer(rb":(\d+):", raw):
                cand = strip_dot(raw[:mm.start()])
                if exists(cand):
                    path, num, rest = raw[:mm.start()], mm.group(1), raw[mm.end():]
                    break
        yield strip_dot(path), int(num), rest


CODE_RE = re.compile(rb"^code: (.+?)  (\S+) (.+) \((\d+)-(\d+)\)$")
CODE_LINE_RE = re.compile(rb"^\s*(\d+): (.*)$", re.S)


class Page:
    """scout's text output, parsed. ranked: whether it had a header.
    files: [(path, hits, marks, [(line, text bytes)])] of a ranked page;
    plain: [(path, line, text)] of rg's lines; code: [(path, kind, name,
    first, last, [(line, text)])] of the `code:` blocks that follow the
    matches; footer: `+...`, `note:`, `repro:`, `fallback:` lines; junk:
    lines that fit nothing."""

    def __init__(self):
        self.ranked = False
        self.hits = self.files_count = self.shown = None
        self.header = b""
        self.files = []
        self.code = []
        self.footer = []
        self.plain = []
        self.junk = []
        # (path, line or None) named by the footer's note on definitions
        # that are on other pages.
        self.noted = []
        # Paths of the ranked page whose lines stand under at least one
        # enclosing-definition heading ("  function f (30-120)").
        self.headed = set()

    def named_paths(self):
        paths = {c[0] for c in self.code} | {p for p, _ in self.noted}
        if self.ranked:
            return paths | {f[0] for f in self.files}
        return paths | {p for p, _, _ in self.plain}

    def shown_lines(self):
        """{(path, line)} quoted on the page, code blocks included."""
        shown = {(c[0], n) for c in self.code for n, _ in c[5]}
        shown |= {(p, n) for p, n in self.noted if n is not None}
        if self.ranked:
            return shown | {(f[0], n) for f in self.files for n, _ in f[3]}
        return shown | {(p, n) for p, n, _ in self.plain}


NOTE_RE = re.compile(rb"^note: \d+ more (?:file defines|files define) it, on other pages"
                     rb"(?:; all \d+ that do)?: (.*?)(?: \(\+\d+ more\))?$")


def expand_braces(text):
    """bash brace expansion of the forms scout writes (`a/{b,c}/{d,e}.rs`,
    no nesting)."""
    open_ = text.find(b"{")
    if open_ < 0:
        return [text]
    close = text.index(b"}", open_)
    return [text[:open_] + alt + rest
            for alt in text[open_ + 1:close].split(b",")
            for rest in expand_braces(text[close + 1:])]


def parse_note(raw):
    """(path, line or None) of each place the note on definitions names:
    `path:line`, or a brace expression standing for many paths."""
    m = NOTE_RE.match(raw)
    if not m:
        return []
    named = []
    for place in m.group(1).split(b", "):
        path, sep, line = place.rpartition(b":")
        if sep and line.isdigit():
            named.append((strip_dot(path), int(line)))
        else:
            named.extend((strip_dot(p), None) for p in expand_braces(place))
    return named


def parse_scout(out, exists=None):
    page = Page()
    lines = split_lines(out)
    rest = lines
    if lines and lines[0].startswith(b"query: "):
        page.ranked = True
        page.header = lines[0]
        m = HEADER_RE.match(lines[0])
        if m:
            page.hits, page.files_count = int(m.group(1)), int(m.group(2))
        m = SHOWN_RE.search(lines[0])
        if m:
            page.shown = int(m.group(1))
        rest = lines[1:]
    cur = code = None
    plain_part = []
    for raw in rest:
        cm = CODE_RE.match(raw)
        if cm:
            code = (strip_dot(cm.group(1)), cm.group(2), cm.group(3),
                    int(cm.group(4)), int(cm.group(5)), [])
            page.code.append(code)
            continue
        if raw.startswith((b"note:", b"repro:", b"fallback:")) or (
                page.ranked and raw[:1] == b"+"):
            page.footer.append(raw)
            page.noted.extend(parse_note(raw))
            code = None
            continue
        if code is not None:
            qm = CODE_LINE_RE.match(raw)
            if qm:
                code[5].append((int(qm.group(1)), qm.group(2)))
                continue
            code = None
        if not page.ranked:
            plain_part.append(raw)
            continue
        fm = FILE_RE.match(raw)
        if fm:
            cur = (strip_dot(fm.group(1)), int(fm.group(2)), fm.group(3), [])
            page.files.append(cur)
            continue
        qm = QUOTE_RE.match(raw)
        if qm and cur is not None:
            cur[3].append((int(qm.group(1)), qm.group(2)))
            continue
        if raw[:1] in (b" ", b"\t") and cur is not None:
            # A group heading such as "  function f (30-120)".
            if HEADING_RE.match(raw):
                page.headed.add(cur[0])
            continue
        page.junk.append(raw)
    if not page.ranked:
        page.plain = list(parse_plain(b"\n".join(plain_part), exists))
        page.plain_raw = plain_part
    return page


def repo_exists(repo):
    cache = {}

    def exists(rel):
        if rel not in cache:
            cache[rel] = os.path.isfile(os.path.join(os.fsencode(repo), rel))
        return cache[rel]
    return exists


def percentile(xs, p):
    """Nearest-rank percentile of a non-empty list (p in 0..100)."""
    xs = sorted(xs)
    if not xs:
        return None
    k = max(0, min(len(xs) - 1, int(round(p / 100.0 * len(xs) + 0.5)) - 1))
    return xs[k]


def median(xs):
    xs = sorted(xs)
    if not xs:
        return None
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2.0
