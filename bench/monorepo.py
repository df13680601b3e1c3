#!/usr/bin/env python3
"""A monorepo of many real repositories, and scout's figures on it beside rg's (#35).

    python3 bench/monorepo.py build --out DIR [--force] SRC|NAME=SRC...
    python3 bench/monorepo.py measure TREE [--scout PATH] [--runs 5]
        [--out FILE] [--state DIR] [--skip-index] [--index-timeout 1800]
        [--names A,B,...] [--question Q]... [--callers PATH#NAME]...
        [--seed 1] [--timeout 600]
    python3 bench/monorepo.py pair TREE --before PATH --after PATH --state DIR
        [--runs 9] [--question Q]...

build: each SRC (a git work tree or a plain directory) becomes DIR/NAME/
(NAME: the basename of SRC, or the NAME of NAME=SRC), made of hard links to
SRC's files (os.link; a copy where SRC is on another device), symlinks kept
as symlinks, `.git` left out. Then `git init -q` in each component, so that
it is a repository root as scout sees it (one vector store per root, the
nearest directory above a file with a `.git`) and rg honours its
.gitignore files (linked like every other file). No commit is made. The
tree shares its files' inodes with the sources: never edit files in it.
DIR/MONOREPO.json records per component its source, git commit (SRC is a
work tree), files, symlinks, bytes, tracked files absent from the work tree
(a checkout short of blobs), and how many files `rg --files` lists; and
the totals. A non-empty DIR is refused unless --force, which deletes DIR
first (only a DIR this script built: it holds MONOREPO.json or the
`.monorepo-partial` marker of an interrupted build).

measure: cwd = TREE and path `.` for every command; each scout run has no
agent session and its own XDG_CACHE_HOME/XDG_STATE_HOME (benchlib's
scout_env): "warm" runs share one directory (a temp dir, or --state DIR,
kept across invocations so that a finished index is reused), "cold" runs
get a new empty one each (removed after the run, outside the timing).
Wall time by time.perf_counter() around the child; peak RSS by
`/usr/bin/time -f %M -o FILE` around every command, rg's too (the largest
of scout and the processes it waited for, such as its rg; not their sum;
apt-get install -y time; the time process adds its own fork and exec,
about a millisecond, to rg and scout alike). Not Python's own wait4
rusage: a child forked from Python inherits Python's RSS as its floor
(some 25 MB here). Medians over --runs rounds; in each round rg runs
first, then the scout variants, in a fixed order.

0. index (unless --skip-index, and only with the encoder installed:
   `scout doctor --json` in TREE says; SCOUT_ENCODER_DIR is passed
   through): `scout index .` in the warm directory, once, killed after
   --index-timeout seconds (an index resumes where it stopped); reports
   its wall time, peak RSS, summary or last progress line, and the vector
   store on disk (`du -sk` of the cache's scout/vectors).
1. search: 4 identifiers named in 20-2000 files (`rg -l -F` counts; from
   --names, else a default list, else seeded derived queries):
   `scout search NAME .` (warm; one untimed run first) vs `rg -n -F NAME .`.
2. smart: questions (--question, default three): `scout smart --words-only
   Q .` (warm), with the encoder also `scout smart Q .` cold (nothing in
   the cache), second (a fresh cache where the same question ran once,
   untimed: what a second question meets), and warm (the same question
   again: everything it compares is in the store; a question compares the
   same definitions cold or warm, a tree over 2,000 files among its
   candidates), vs
   `rg -i -l -e W1 -e W2 ... .` with the W the question's own words as
   scout looks for them (each concept's stem in `scout smart --json
   --words-only Q .`); scout's own pass (its repro line, `rg -c -e REGEX
   .`, every form of every word) is timed beside it. The header and
   `meaning:` lines of each variant's last run say how much it compared.
3. callers-of: three targets (--callers, else a seeded rule: a C function
   of redis named in 10-30 files, a Java method of spring-framework/kafka
   whose name has 2+ definitions and is named in 100-1000 files, a Go
   function of moby named in 10-1000 files; C and Go defined once in
   those components; tests, vendor/ and generated code left out; names
   in a seeded order, 40 counted and 6 tried at most; each kept when
   `--callers-of --json` attributes a call):
   `scout search --callers-of PATH#NAME -e '' .` (every call) cold and warm, beside warm
   `scout search NAME .`, vs `rg -n -F NAME .`.

pair: two builds of scout (--before, --after), interleaved in each round
with their order alternating, on the smart questions: cold (a fresh cache
each run) and warm (the --state directory, the question asked before),
each median with its ratio to scout's own pass timed in the same rounds.
For a change's effect on a machine whose speed drifts between runs.

Markdown tables on stdout; every run (seconds, peak RSS, exit code, stdout
bytes) in --out JSON. On the full tree `scout index` takes long (it embeds
every definition at some 100-600 a second on 2 cores): run measure on a
quiet machine, and with --state to keep the index for the next run. After
an index cut short, each warm smart run also embeds within its budget
(0.25 s after the words' pass), so it is a
little warmer than the one before: its `meaning:` line says how much had
vectors.
"""

import argparse
import atexit
import errno
import json
import os
import platform
import random
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402

MANIFEST = "MONOREPO.json"
PARTIAL = ".monorepo-partial"


def log(m):
    print("# " + m, file=sys.stderr, flush=True)


# -------------------------------------------------------------------- build


def git_commit(src):
    """HEAD of src when src is the top of a git work tree, else None."""
    top = bl.run(["git", "-C", src, "rev-parse", "--show-toplevel"], src)
    if top.code != 0 or os.path.realpath(top.out.strip().decode()) != os.path.realpath(src):
        return None
    head = bl.run(["git", "-C", src, "rev-parse", "HEAD"], src)
    return head.out.strip().decode() if head.code == 0 else None


def absent_tracked(src):
    """Files git tracks in src that are not in its work tree (a mirror
    short of some blobs checks out without them)."""
    r = bl.run(["git", "-C", src, "ls-files", "-z"], src, timeout=600)
    if r.code != 0:
        return None
    return sum(1 for p in r.out.split(b"\0")
               if p and not os.path.lexists(os.path.join(os.fsencode(src), p)))


def link_tree(src, dest):
    """Mirrors src into dest (hard links, symlinks as symlinks, `.git`
    left out). Returns counts: files, symlinks, bytes, linked, copied,
    skipped (neither a file, a directory nor a symlink)."""
    c = {"files": 0, "symlinks": 0, "bytes": 0, "linked": 0, "copied": 0,
         "skipped": 0}
    for root, dirs, files in os.walk(src):
        rel = os.path.relpath(root, src)
        out = dest if rel == "." else os.path.join(dest, rel)
        os.makedirs(out, exist_ok=True)
        keep = []
        for d in sorted(dirs):
            p = os.path.join(root, d)
            if d == ".git":
                continue
            if os.path.islink(p):  # os.walk lists a link to a dir here
                files.append(d)
                continue
            keep.append(d)
        dirs[:] = keep
        for f in sorted(files):
            if f == ".git":  # a worktree's or submodule's .git file
                continue
            s, t = os.path.join(root, f), os.path.join(out, f)
            st = os.lstat(s)
            if os.path.islink(s):
                os.symlink(os.readlink(s), t)
                c["symlinks"] += 1
                continue
            if not os.path.isfile(s):
                c["skipped"] += 1
                continue
            try:
                os.link(s, t)
                c["linked"] += 1
            except OSError as e:
                if e.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK):
                    raise
                shutil.copy2(s, t)
                c["copied"] += 1
            c["files"] += 1
            c["bytes"] += st.st_size
    return c


def rg_files_per_component(tree):
    """{component: files `rg --files` lists under it} (what rg searches)."""
    per = {}
    for p in bl.rg_files(tree, timeout=1800):
        top = p.split(b"/", 1)[0].decode(errors="replace")
        per[top] = per.get(top, 0) + 1
    return per


def build(args):
    out = os.path.abspath(args.out)
    if os.path.exists(out) and os.listdir(out):
        if not args.force:
            raise SystemExit("%s is not empty: --force deletes it first" % out)
        if not any(os.path.exists(os.path.join(out, m)) for m in (MANIFEST, PARTIAL)):
            raise SystemExit("%s holds neither %s nor %s: not a tree this script "
                             "built, not deleting it" % (out, MANIFEST, PARTIAL))
        log("deleting %s (--force)" % out)
        shutil.rmtree(out)
    comps = []
    for spec in args.src:
        name, sep, path = spec.partition("=")
        if not sep or os.sep in name:
            name, path = os.path.basename(os.path.normpath(spec)), spec
        path = os.path.abspath(os.path.expanduser(path))
        if not os.path.isdir(path):
            raise SystemExit("%s is not a directory" % path)
        if name in (n for n, _ in comps) or name in (MANIFEST, PARTIAL):
            raise SystemExit("two components named %r: name one NAME=SRC" % name)
        comps.append((name, path))
    os.makedirs(out, exist_ok=True)
    open(os.path.join(out, PARTIAL), "w").close()
    t0 = time.perf_counter()
    records = []
    for name, src in comps:
        start = time.perf_counter()
        dest = os.path.join(out, name)
        counts = link_tree(src, dest)
        init = bl.run(["git", "init", "-q"], dest)
        if init.code != 0:
            raise SystemExit("git init in %s failed: %s" % (dest, init.err.decode(errors="replace")))
        commit = git_commit(src)
        rec = {"name": name, "source": src, "commit": commit, **counts,
               "absent_tracked": absent_tracked(src) if commit else None}
        records.append(rec)
        log("%s: %d files (%d linked, %d copied), %d symlinks, %.1f MB, commit %s; %.1fs"
            % (name, counts["files"], counts["linked"], counts["copied"],
               counts["symlinks"], counts["bytes"] / 1e6, commit or "-",
               time.perf_counter() - start))
    per = rg_files_per_component(out)
    for rec in records:
        rec["rg_files"] = per.get(rec["name"], 0)
    totals = {k: sum(r[k] for r in records)
              for k in ("files", "symlinks", "bytes", "linked", "copied", "rg_files")}
    doc = {"tree": out, "built": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
           "seconds": round(time.perf_counter() - t0, 1),
           "components": records, "totals": totals}
    with open(os.path.join(out, MANIFEST), "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
    os.unlink(os.path.join(out, PARTIAL))
    print("| component | files | MB | rg --files | commit |")
    print("|---|--:|--:|--:|---|")
    for r in records:
        print("| %s | %d | %.1f | %d | %s |" % (r["name"], r["files"], r["bytes"] / 1e6,
                                             r["rg_files"], (r["commit"] or "-")[:12]))
    print("| total | %d | %.1f | %d | |" % (totals["files"], totals["bytes"] / 1e6,
                                           totals["rg_files"]))
    print()
    print("%s/%s written; %.0fs" % (out, MANIFEST, doc["seconds"]))
    return 0


# ------------------------------------------------------------------ measure


class Timed:
    """One run: wall seconds, peak RSS KiB, exit code (None on timeout),
    stdout and stderr bytes."""

    __slots__ = ("secs", "rss_kb", "code", "out", "err", "timed_out")

    def to_json(self):
        return {"secs": round(self.secs, 4), "rss_kb": self.rss_kb, "code": self.code,
                "stdout_bytes": len(self.out), "timed_out": self.timed_out}


def kill_group(pid, sig):
    try:
        os.killpg(pid, sig)
    except OSError:
        pass


TIME = "/usr/bin/time"


def timed(argv, cwd, env, timeout, on_err_line=None):
    """Runs argv (its own process group, stdin closed, both pipes
    drained), under /usr/bin/time for its peak RSS when that is
    installed. on_err_line: called with each stderr line (split at \\n
    and \\r) as it comes."""
    t = Timed()
    rss_file = None
    if os.access(TIME, os.X_OK):
        fd, rss_file = tempfile.mkstemp(prefix="scout-monorepo-rss-")
        os.close(fd)
        argv = [TIME, "-f", "%M", "-o", rss_file] + list(argv)
    start = time.perf_counter()
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    chunks = {"out": [], "err": []}

    def drain(stream, key):
        buf = b""
        for block in iter(lambda: stream.read1(1 << 16), b""):
            chunks[key].append(block)
            if on_err_line is not None and key == "err":
                buf += block
                parts = re.split(rb"[\r\n]", buf)
                buf = parts.pop()
                for line in parts:
                    if line.strip():
                        on_err_line(line)
        if on_err_line is not None and buf.strip():
            on_err_line(buf)

    readers = [threading.Thread(target=drain, args=(p.stdout, "out")),
               threading.Thread(target=drain, args=(p.stderr, "err"))]
    for r in readers:
        r.start()
    expired, done = threading.Event(), threading.Event()

    def expire():
        # SIGINT first (a store's torn tail is cut by its next writer), SIGKILL 10 s on;
        # never to a group whose leader was reaped (its id may be reused).
        expired.set()
        kill_group(p.pid, signal.SIGINT)
        if not done.wait(10):
            kill_group(p.pid, signal.SIGKILL)

    timer = threading.Timer(timeout, expire)
    timer.daemon = True
    timer.start()
    p.wait()
    t.secs = time.perf_counter() - start
    done.set()
    timer.cancel()
    for r in readers:
        r.join()
    p.stdout.close()
    p.stderr.close()
    t.rss_kb = None
    if rss_file:
        with open(rss_file, "rb") as fh:
            last = fh.read().split()
        os.unlink(rss_file)
        # On a kill, time writes "Command terminated by signal N" first.
        t.rss_kb = int(last[-1]) if last and last[-1].isdigit() else None
    t.timed_out = expired.is_set()
    t.code = None if t.timed_out else p.returncode
    t.out, t.err = b"".join(chunks["out"]), b"".join(chunks["err"])
    return t


class Bench:
    """What every section shares: the tree, scout, the environments, the
    raw runs."""

    def __init__(self, args):
        self.tree = os.path.abspath(args.tree)
        self.scout = bl.find_scout(args.scout)
        self.runs = args.runs
        self.timeout = args.timeout
        self.scratch = tempfile.mkdtemp(prefix="scout-monorepo-")
        atexit.register(shutil.rmtree, self.scratch, True)
        self.state = os.path.abspath(args.state) if args.state else os.path.join(self.scratch, "warm")
        self.warm = bl.scout_env(self.state)
        self.raw = []
        self.cold_n = 0

    def cold_env(self):
        self.cold_n += 1
        return bl.scout_env(os.path.join(self.scratch, "cold-%d" % self.cold_n))

    def primed_env(self, argv):
        """A fresh cache and state in which `argv` (a smart question) ran
        once, untimed."""
        env = self.cold_env()
        self.once(argv, env)
        return env

    def drop_cold(self, env):
        shutil.rmtree(os.path.dirname(env["XDG_CACHE_HOME"]), ignore_errors=True)

    def once(self, argv, env=None, timeout=None):
        return timed(argv, self.tree, env or os.environ, timeout or self.timeout)

    def vectors_dir(self):
        return os.path.join(self.warm["XDG_CACHE_HOME"], "scout", "vectors")

    def store_size(self):
        """(KiB on disk per du -sk, files) of the warm cache's vectors."""
        d = self.vectors_dir()
        if not os.path.isdir(d):
            return 0, 0
        r = bl.run(["du", "-sk", d], self.tree)
        kb = int(r.out.split()[0]) if r.code == 0 and r.out.split() else None
        return kb, sum(len(f) for _, _, f in os.walk(d))

    def rounds(self, section, label, variants):
        """variants: [(name, argv, env or a callable giving a fresh one)],
        rg's first. Interleaved rounds; returns {name: [Timed]}."""
        got = {name: [] for name, _, _ in variants}
        for _ in range(self.runs):
            for name, argv, env in variants:
                e = env() if callable(env) else env
                t = self.once(argv, e)
                if callable(env):
                    self.drop_cold(e)
                got[name].append(t)
                if t.timed_out:
                    log("%s: timed out after %.0fs" % (" ".join(argv), t.secs))
                elif t.code not in (0, 1):
                    log("%s: exit %s: %s" % (" ".join(argv), t.code,
                                             t.err[:300].decode(errors="replace")))
        for name, argv, env in variants:
            self.raw.append({"section": section, "label": label, "variant": name,
                             "argv": argv, "cold": callable(env),
                             "runs": [t.to_json() for t in got[name]]})
        return got


def med(ts, attr="secs"):
    xs = [getattr(t, attr) for t in ts if getattr(t, attr) is not None]
    return bl.median(xs) if xs else None


def table(rows):
    """rows: (command, [Timed], [rg Timed] or None)."""
    print("| command | median s | rg median s | ratio | peak RSS MB (median) | exit codes |")
    print("|---|--:|--:|--:|--:|---|")
    for cmd, ts, rg in rows:
        m = med(ts)
        rm = med(rg) if rg else None
        rss = med(ts, "rss_kb")
        codes = sorted({("timeout" if t.timed_out else str(t.code)) for t in ts})
        print("| `%s` | %s | %s | %s | %s | %s |" % (
            cmd.replace("|", "\\|"), "%.3f" % m if m is not None else "-",
            "%.3f" % rm if rm is not None else "-",
            "%.2f" % (m / rm) if m and rm else "-",
            "%.1f" % (rss / 1024.0) if rss else "-", ",".join(codes)))
    print()


def rg_file_count(b, name, word=False):
    """Files `rg -l -F [-w] -e NAME .` lists."""
    r = bl.run(["rg", "-l", "-F"] + (["-w"] if word else []) + ["-e", name, "."],
               b.tree, timeout=b.timeout)
    return len(bl.split_lines(r.out))


def encoder_state(b):
    """(installed?, doctor's encoder line)."""
    r = bl.run([b.scout, "doctor", "--json"], b.tree, env=b.warm, timeout=b.timeout)
    try:
        checks = json.loads(r.out).get("checks", [])
    except ValueError:
        return False, "scout doctor --json gave no JSON (exit %s)" % r.code
    for c in checks:
        if c.get("name") == "encoder":
            return c.get("status") == "ok", "%s: %s" % (c.get("status"), c.get("detail"))
    return False, "scout doctor has no encoder check"


INDEX_PROGRESS = re.compile(rb"^index: .*\d+/\d+ files")


def section_index(b, args, report):
    print("## index\n")
    kb0, _ = b.store_size()
    last = [b""]

    def seen(line):
        if INDEX_PROGRESS.search(line):
            last[0] = line.strip()

    argv = [b.scout, "index", "."]
    t = timed(argv, b.tree, b.warm, args.index_timeout, on_err_line=seen)
    kb, nfiles = b.store_size()
    summary = t.out.decode(errors="replace").strip()
    rec = {"argv": argv, "timeout_s": args.index_timeout, **t.to_json(),
           "summary": summary, "last_progress": last[0].decode(errors="replace"),
           "stderr_tail": t.err[-2000:].decode(errors="replace"),
           "store_kb_before": kb0, "store_kb": kb, "store_files": nfiles}
    report["index"] = rec
    state = ("killed after the %ds --index-timeout" % args.index_timeout if t.timed_out
             else "exit %s" % t.code)
    print("`scout index .`: %.1f s (%s), peak RSS %s MB"
          % (t.secs, state, "%.1f" % (t.rss_kb / 1024.0) if t.rss_kb else "-"))
    print()
    if summary:
        print("    " + summary)
    if t.timed_out or not summary:
        print("    last progress: " + (rec["last_progress"] or "(none)"))
    print()
    print("vectors on disk (`du -sk %s`): %s KiB in %d files (before: %s KiB)\n"
          % (b.vectors_dir(), kb, nfiles, kb0))


DEFAULT_NAMES = ["getLogger", "dictFind", "NewRouter", "useState", "sdslen",
                 "ArrayList", "assertEqual", "HashMap", "NewServer", "readFile"]


def pick_names(b, args, report):
    """4 identifiers named in 20-2000 files, with their rg -l -F counts."""
    tried, kept = [], []
    cands = args.names.split(",") if args.names else DEFAULT_NAMES
    for n in cands:
        if len(kept) >= 4:
            break
        c = rg_file_count(b, n)
        tried.append((n, c))
        if 20 <= c <= 2000:
            kept.append((n, c))
    if len(kept) < 4 and not args.names:
        log("only %d default names in 20-2000 files; deriving more (seed %d)"
            % (len(kept), args.seed))
        for q in bl.derive_queries(b.tree, 24, args.seed, n_regex=0, n_icase=0, log=log):
            if len(kept) >= 4:
                break
            if q.kind == "ident" and q.files and 20 <= q.files <= 2000 and \
                    q.text not in (n for n, _ in kept):
                tried.append((q.text, q.files))
                kept.append((q.text, q.files))
    report["names_tried"] = tried
    return kept


def section_search(b, args, report):
    print("## search\n")
    names = pick_names(b, args, report)
    print("identifiers (files by `rg -l -F`): %s\n" % ", ".join("%s %d" % nc for nc in names))
    rows = []
    for name, _ in names:
        sargv = [b.scout, "search", name, "."]
        b.once(sargv, b.warm)  # fills the warm definitions cache
        got = b.rounds("search", name, [
            ("rg", ["rg", "-n", "-F", name, "."], os.environ),
            ("scout", sargv, b.warm)])
        rows.append(("rg -n -F %s ." % name, got["rg"], None))
        rows.append(("scout search %s ." % name, got["scout"], got["rg"]))
    table(rows)


DEFAULT_QUESTIONS = ["where are expired keys deleted", "how is the http request retried",
                     "parse the configuration file"]


def candidate_words(doc):
    """The question's own words as smart looks for them: each concept's
    stem, from `scout smart --json`'s concepts."""
    return [c["stem"] for c in doc.get("concepts", []) if c.get("stem")]


def repro_argv(doc):
    """smart's repro line (`rg -c -e REGEX .`: the pass's lines, counted
    per file) as an argv, or None."""
    repro = doc.get("repro", "")
    return shlex.split(repro) if repro.startswith("rg ") else None


def words_and_pass(b, q):
    """The question's words and scout's own pass (an argv), from `scout
    smart --json --words-only`; each None when missing (logged)."""
    js = b.once([b.scout, "smart", "--json", "--words-only", q, "."], b.warm)
    try:
        doc = json.loads(js.out)
    except ValueError:
        doc = {}
    words, pass_argv = candidate_words(doc), repro_argv(doc)
    if not words or not pass_argv:
        log("smart %r: no concepts or repro line in --json (exit %s); skipped" % (q, js.code))
    return words or None, pass_argv


def header_lines(out):
    """smart's first line and its `meaning:` line."""
    lines = bl.split_lines(out)
    first = lines[0].decode(errors="replace") if lines else ""
    meaning = next((l.decode(errors="replace") for l in lines[:4]
                    if l.startswith(b"meaning:")), "")
    return first, meaning


def section_smart(b, args, report, dense):
    print("## smart\n")
    rows, headers = [], []
    for q in args.question or DEFAULT_QUESTIONS:
        words, pass_argv = words_and_pass(b, q)
        if not words or not pass_argv:
            continue
        rg = ["rg", "-i", "-l"] + [x for w in words for x in ("-e", w)] + ["."]
        variants = [("rg", rg, os.environ),
                    ("rg-pass", pass_argv, os.environ),
                    ("words-only", [b.scout, "smart", "--words-only", q, "."], b.warm)]
        if dense:
            ask = [b.scout, "smart", q, "."]
            variants += [("cold", ask, b.cold_env),
                         ("second", ask, lambda ask=ask: b.primed_env(ask)),
                         ("warm", ask, b.warm)]
        got = b.rounds("smart", q, variants)
        rows.append((" ".join(shlex.quote(a) for a in rg), got["rg"], None))
        rows.append(("scout's own pass (its repro line) [rg-pass]", got["rg-pass"], got["rg"]))
        for name, argv, _ in variants[2:]:
            label = "scout smart %s%s ." % ("--words-only " if name == "words-only" else "",
                                            shlex.quote(q))
            rows.append(("%s [%s]" % (label, name), got[name], got["rg"]))
            first, meaning = header_lines(got[name][-1].out)
            headers.append((q, name, first, meaning))
        report.setdefault("smart_words", {})[q] = words
    table(rows)
    print("what each compared (its last run's header and `meaning:` lines):\n")
    for q, name, first, meaning in headers:
        print("- %s [%s]: `%s` / `%s`" % (q, name, first, meaning))
    report["smart_headers"] = [dict(zip(("question", "variant", "header", "meaning"), h))
                               for h in headers]
    print()


# Per language: the definition regex (group 1: the name), rg's glob, the
# components searched for definitions (those present; else the whole
# tree), the range of files naming it, and whether the name must be
# defined once in those components (else 2+ times: a common name).
CALLER_RULES = [
    ("c", r"^[A-Za-z_][\w \*]*?\b([A-Za-z_]\w{3,})\s*\([^;]*$", "*.c",
     ["redis"], (10, 30), "once"),
    ("java", r"^\s+(?:(?:public|protected|private|static|final|synchronized|abstract)\s+)+"
             r"(?:<[^>]+>\s+)?[\w.<>\[\]?, ]+\s+([a-z]\w{3,})\s*\([^;]*$", "*.java",
     ["spring-framework", "kafka"], (100, 1000), "many"),
    ("go", r"^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w{3,})\s*[(\[]", "*.go",
     ["moby"], (10, 1000), "once"),
]
NOT_NAMES = {"if", "for", "while", "switch", "return", "sizeof", "main", "catch",
             "synchronized", "init", "String", "equals", "hashCode", "toString"}
# Definitions in tests and in vendored or generated code are not targets.
NOT_TARGET = re.compile(rb"(^|/)(tests?|testdata|testing|mocks?|fixtures?|vendor|third_party"
                        rb"|node_modules)/|_test\.go$|Tests?\.java$|\.pb\.go$")


def pick_callers(b, args, report):
    """[(lang, PATH#NAME, name, files naming it)] by the seeded rule."""
    found = []
    for lang, pat, glob, comps, (lo, hi), ndefs in CALLER_RULES:
        where = [c for c in comps if os.path.isdir(os.path.join(b.tree, c))] or ["."]
        r = bl.run(["rg", "-n", "--no-heading", "--with-filename", "-g", glob, "-e", pat]
                   + where, b.tree, timeout=b.timeout)
        rx = re.compile(pat.encode())
        defs = {}
        for path, _, text in bl.parse_plain(r.out):
            m = rx.search(text)
            if m and not NOT_TARGET.search(path):
                defs.setdefault(m.group(1), []).append(path)
        names = sorted((n for n, ps in defs.items()
                        if n.decode() not in NOT_NAMES and not n.lower().startswith(b"test")
                        and len(n) >= 5
                        and ((len(ps) == 1) if ndefs == "once"
                             else (len(ps) >= 2 and len(set(ps)) == len(ps)))),
                       key=lambda n: bl._stable_key(args.seed, n))
        counted = checked = 0
        pick = None
        for n in names:
            if counted >= 40 or checked >= 6:
                break
            name = n.decode()
            nfiles = rg_file_count(b, name, word=True)
            counted += 1
            if not lo <= nfiles <= hi:
                continue
            paths = sorted(defs[n])
            path = random.Random("%d %s" % (args.seed, name)).choice(paths).decode()
            target = "%s#%s" % (path, name)
            checked += 1
            env = b.cold_env()
            js = bl.run([b.scout, "search", "--callers-of", target, "--json"], b.tree,
                        env=env, timeout=b.timeout)
            b.drop_cold(env)
            try:
                hits = json.loads(js.out).get("hits") or 0
            except ValueError:
                hits = 0
            log("callers-of %s: %d files name it, %d definitions, %d hits attributed"
                % (target, nfiles, len(defs[n]), hits))
            if js.code == 0 and hits >= 1:
                pick = (lang, target, name, nfiles)
                break
        if pick:
            found.append(pick)
        else:
            log("callers-of: no %s target in %s (%d names counted, %d checked)"
                % (lang, ",".join(where), counted, checked))
    return found


def section_callers(b, args, report):
    print("## callers-of\n")
    if args.callers:
        targets = [("-", t, t.rpartition("#")[2].rpartition(".")[2],
                    rg_file_count(b, t.rpartition("#")[2].rpartition(".")[2], word=True))
                   for t in args.callers]
    else:
        targets = pick_callers(b, args, report)
    report["callers_targets"] = [dict(zip(("lang", "target", "name", "files"), t))
                                 for t in targets]
    print("targets (files naming the name, `rg -l -F -w`): %s\n"
          % ", ".join("%s %s %d" % (l, t, n) for l, t, _, n in targets))
    rows = []
    for _, target, name, _ in targets:
        cargv = [b.scout, "search", "--callers-of", target, "-e", "", "."]
        sargv = [b.scout, "search", name, "."]
        b.once(cargv, b.warm)
        b.once(sargv, b.warm)
        got = b.rounds("callers", target, [
            ("rg", ["rg", "-n", "-F", name, "."], os.environ),
            ("search", sargv, b.warm),
            ("cold", cargv, b.cold_env),
            ("warm", cargv, b.warm)])
        rows.append(("rg -n -F %s ." % name, got["rg"], None))
        rows.append(("scout search %s . [warm]" % name, got["search"], got["rg"]))
        rows.append(("scout search --callers-of %s -e '' . [cold]" % target, got["cold"], got["rg"]))
        rows.append(("scout search --callers-of %s -e '' . [warm]" % target, got["warm"], got["rg"]))
    table(rows)


def measure(args):
    b = Bench(args)
    if not os.path.isdir(b.tree):
        raise SystemExit("%s is not a directory" % b.tree)
    report = {"tree": b.tree, "scout": b.scout, "runs": args.runs,
              "state": b.state, "machine": platform.platform(), "cores": os.cpu_count()}
    manifest = os.path.join(b.tree, MANIFEST)
    if os.path.exists(manifest):
        with open(manifest) as fh:
            report["monorepo"] = json.load(fh).get("totals")
    rg_version = "%s at %s" % (bl.run(["rg", "--version"], b.tree).out.split(b"\n")[0]
                               .decode(), shutil.which("rg"))
    scout_version = bl.run([b.scout, "--version"], b.tree).out.split(b"\n")[0].decode()
    dense, enc = encoder_state(b)
    report.update(rg=rg_version, scout_version=scout_version, encoder=enc)
    t0 = time.perf_counter()
    print("# monorepo: %s\n" % b.tree)
    tot = report.get("monorepo")
    if tot:
        print("%d files, %.1f MB, %d listed by `rg --files` (%s)\n"
              % (tot["files"], tot["bytes"] / 1e6, tot["rg_files"], MANIFEST))
    print("%s; %s; %d cores; %d interleaved rounds; warm state %s\n"
          % (scout_version, rg_version, os.cpu_count(), args.runs, b.state))
    print("encoder: %s%s\n" % (enc, "" if dense else
                               " -- the dense parts (index, smart cold/warm) are skipped"))
    if dense and not args.skip_index:
        section_index(b, args, report)
    section_search(b, args, report)
    section_smart(b, args, report, dense)
    section_callers(b, args, report)
    report["seconds"] = round(time.perf_counter() - t0, 1)
    print("%.0fs in all" % report["seconds"])
    if args.out:
        report["runs_raw"] = b.raw
        with open(args.out, "w") as fh:
            json.dump(report, fh, indent=1)
    return 0


def pair(args):
    """Two builds of scout, interleaved in each round (their order
    alternating), on the smart questions: cold (a fresh cache each run)
    and warm (the warm state, the question asked before); each median
    with its ratio to scout's own pass, timed in the same rounds."""
    if args.runs < 1:
        sys.exit("pair: --runs must be 1 or more")
    args.scout = args.after
    b = Bench(args)
    builds = [("before", bl.find_scout(args.before)), ("after", b.scout)]
    print("# pair: %s\n\nbefore %s, after %s; %d rounds; warm state %s\n"
          % (b.tree, builds[0][1], builds[1][1], b.runs, b.state))
    rows = []
    for q in args.question or DEFAULT_QUESTIONS:
        _, pass_argv = words_and_pass(b, q)
        if not pass_argv:
            continue
        got = {"pass": []}
        for _, scout in builds:
            # Untimed: whichever build runs first would otherwise remember
            # the listing for both.
            b.once([scout, "smart", q, "."], b.warm)
        for r in range(b.runs):
            got["pass"].append(b.once(pass_argv, os.environ).secs)
            for name, scout in builds[::1 if r % 2 == 0 else -1]:
                for mode in ("cold", "warm"):
                    if mode == "cold":
                        env = b.cold_env()
                        t = b.once([scout, "smart", q, "."], env)
                        b.drop_cold(env)
                    else:
                        t = b.once([scout, "smart", q, "."], b.warm)
                    if t.timed_out or t.code not in (0, 1):
                        log("pair %s %s %r: exit %s%s" % (name, mode, q, t.code,
                                                       ", timed out" if t.timed_out else ""))
                    got.setdefault((mode, name), []).append(t.secs)
        own = statistics.median(got["pass"])
        cells = []
        for mode in ("cold", "warm"):
            for name, _ in builds:
                m = statistics.median(got[(mode, name)])
                cells.append("%.3f s (%.2f)" % (m, m / own))
        rows.append("| %s | %.3f s | %s |" % (q, own, " | ".join(cells)))
    print("| question | own pass | cold before | cold after | warm before | warm after |")
    print("|---|--:|--:|--:|--:|--:|")
    print("\n".join(rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="verb", required=True)
    bp = sub.add_parser("build", help="link source trees into one monorepo")
    bp.add_argument("--out", required=True, help="the tree to build")
    bp.add_argument("--force", action="store_true", help="delete --out first")
    bp.add_argument("src", nargs="+", help="SRC or NAME=SRC")
    mp = sub.add_parser("measure", help="scout beside rg on a built tree")
    mp.add_argument("tree")
    mp.add_argument("--scout")
    mp.add_argument("--runs", type=int, default=5)
    mp.add_argument("--out", help="all runs as JSON here")
    mp.add_argument("--state", help="the warm cache/state directory (kept)")
    mp.add_argument("--skip-index", action="store_true")
    mp.add_argument("--index-timeout", type=float, default=1800)
    mp.add_argument("--timeout", type=float, default=600,
                    help="seconds per command but the index")
    mp.add_argument("--names", help="comma-separated identifiers for search")
    mp.add_argument("--question", action="append", help="a smart question (repeatable)")
    mp.add_argument("--callers", action="append", help="a PATH#NAME target (repeatable)")
    mp.add_argument("--seed", type=int, default=1)
    pp = sub.add_parser("pair", help="two builds of scout, interleaved, on smart's questions")
    pp.add_argument("tree")
    pp.add_argument("--before", required=True)
    pp.add_argument("--after", required=True)
    pp.add_argument("--runs", type=int, default=9)
    pp.add_argument("--state", required=True,
                    help="the warm cache/state directory, indexed (see measure)")
    pp.add_argument("--timeout", type=float, default=600)
    pp.add_argument("--question", action="append", help="a smart question (repeatable)")
    args = ap.parse_args()
    return {"build": build, "measure": measure, "pair": pair}[args.verb](args)


if __name__ == "__main__":
    sys.exit(main())
