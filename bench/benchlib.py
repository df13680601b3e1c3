"""Shared pieces of scout's benchmark scripts (Python 3 standard library only).

Owns: running a command with a timeout (bytes in, bytes out, wall time),
deriving queries from a tree, the definition oracle (universal-ctags or a
keyword regex run by rg), and parsing scout's and rg's outputs.
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

DEF_KINDS = {"class", "function", "func", "method", "struct", "enum",
             "interface", "typedef", "type", "talias", "alias",
             "implementation", "macro", "union", "generator", "getter",
             "setter", "constructor", "singletonMethod", "methodSpec",
             "trait", "module", "namespace", "member"}
# Kinds that mean something else in some languages: Python's namespace is
# an import alias, C/C++/Go members are fields.
NOT_DEF = {("Python", "namespace"), ("C", "member"), ("C++", "member"),
           ("Go", "member"), ("Python", "module")}


def oracle_files(repo, idents, timeout=DEFAULT_TIMEOUT * 4):
    """Files that mention any identifier as a word (one rg call)."""
    if not idents:
        return []
    argv = ["rg", "-l", "-F", "-w"]
    for t in idents:
        argv += ["-e", t]
    r = run(argv + ["."], cwd=repo, timeout=timeout)
    return sorted(strip_dot(p) for p in r.out.split(b"\n") if p)


def ctags_oracle(repo, idents, log=None):
    """{identifier: set of (path bytes, line)} from universal-ctags run on
    the files that mention the identifiers. Returns None without ctags."""
    ctags = shutil.which("ctags")
    if not ctags:
        return None
    v = run([ctags, "--version"], cwd=repo)
    if b"Universal Ctags" not in v.out:
        return None
    want = set(idents)
    files = oracle_files(repo, idents)
    defs = {t: set() for t in idents}
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
        name = tag.get("name")
        if name not in want or "line" not in tag:
            continue
        kind, lang = tag.get("kind"), tag.get("language")
        if kind not in DEF_KINDS or (lang, kind) in NOT_DEF:
            continue
        path = os.fsencode(tag.get("path", ""))
        defs[name].add((strip_dot(path), int(tag["line"])))
    if log:
        log("oracle: universal-ctags over %d files; %d of %d identifiers "
            "have a definition" % (len(files), sum(1 for v in defs.values() if v),
                                   len(idents)))
    return defs


DEF_WORDS = (r"(?:def|class|fn|func|function|struct|enum|trait|interface|type"
             r"|impl|union|module|mod|typedef|macro_rules!)")


def regex_oracle(repo, idents, log=None):
    """Fallback oracle: lines where a definition keyword precedes the name."""
    defs = {}
    for t in idents:
        pat = (r"(?:^|[^\w.])%s(?:<[^>]*>)?\s+(?:\([^)]*\)\s*)?\*?%s\b"
               % (DEF_WORDS, re.escape(t)))
        r = run(["rg", "-n", "--no-heading", "-e", pat, "."], cwd=repo)
        defs[t] = {(p, n) for p, n, _ in parse_plain(r.out)}
    if log:
        log("oracle: keyword regex via rg; %d of %d identifiers have a "
            "definition" % (sum(1 for v in defs.values() if v), len(idents)))
    return defs


def build_oracle(repo, idents, use="auto", log=None):
    """Returns (name of the oracle used, defs)."""
    if use in ("auto", "ctags"):
        d = ctags_oracle(repo, idents, log)
        if d is not None:
            return "universal-ctags", d
        if use == "ctags":
            raise SystemExit("universal-ctags not found")
    return "keyword-regex", regex_oracle(repo, idents, log)


# ------------------------------------------------------------------ parsing

PLAIN_RE = re.compile(rb"^(.+?):(\d+):")
HEADER_RE = re.compile(rb"^query: .*?\bhits=(\d+) files=(\d+)")
SHOWN_RE = re.compile(rb"\bshown=(\d+)")
FILE_RE = re.compile(rb"^(\S.*?)  \((\d+)x\)((?: \[[a-z]+\])*)$")
QUOTE_RE = re.compile(rb"^\s+(\d+): (.*)$", re.S)
CUT_RE = re.compile(rb"^(.*) \[cut (\d+) of (\d+) bytes\]$", re.S)
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
            continue  # group heading such as "  function f (30-120)"
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
