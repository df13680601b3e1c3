#!/usr/bin/env python3
"""Checks scout's invariants I1-I6 (docs/design.md, "Invariants") on REPO.

    python3 bench/invariants.py REPO [--scout PATH] [--queries 200]
        [--seed 1] [--jobs 2] [--timeout 60] [--max-report 20]

Queries: identifiers derived from the tree (seeded), regexes with an
anchor, case-insensitive literals, and anchorless regexes that scout must
pass through. Per query it runs `scout search Q .` twice, `scout search
--json Q .` once, `rg -c` and `rg -n` (cwd = REPO), and checks:

  I1  passthrough/plain lines are real `rg -n` lines; passthrough stays
      under 100 KB and a cut is announced on stderr
  I2  a ranked page is never larger than `rg -n` stdout (./ stripped); the
      attached `code:` section is weighed separately
  I3  hits=/files= (text header, JSON, per file) equal rg's counts
  I4  every quoted line is the file's line, or a marked cut of it
  I5  two runs print the same bytes (elapsed "NNms" masked)
  I6  shown + already_shown + left_out = hits, per file and in total, also
      with session memory on (a repeated search is never larger);
      plain (non-passthrough) output prints every rg line
  RGJSON  reading rg's --json events (SCOUT_RG_OUTPUT=json) prints the
      same text and --json pages as reading its plain records

With --variants, every derived query is also checked under flag
combinations (the volume run of #15): -w, -i, -F, --kind symbol,
-g GLOB, --type T, -m 1, --budget-tokens 300 and 0, and combinations,
each with the full check above against rg run with the same flags; and,
with a lighter check (I3, I4, I6 on the --json document; exit codes),
--page 2, -l, and the JSON protocol `scout call '{"mode":"search",...}'`,
whose `result` must equal `scout search --json`'s. Over every scout run
it counts invocations, panics (`internal error` on stderr) and exit
codes outside 0-3 (reported as PANIC and EXIT).

Then the page checks of #34, over every command (search text,
--structural, --callers-of; smart, grep, files, read):

  COLD    a run with an empty cache and the next one in the same cache
          print the same stdout (milliseconds masked), text and --json
  BUDGET  every page (pages 1..3, budgets 300, 1000, default) prints at
          most --budget-tokens x 4 bytes, attached code included; grep
          at most --head-limit results, files at most --limit paths
  AGAIN   in a session that has seen some of it, pages 1..5 hold the same
          files with and without --again
  REPEAT  the same search four times in one session is never larger than
          the first run

--checks picks checks by name (CORE: the per-query checks above, MEMORY:
the session-memory pass, COLD, BUDGET, AGAIN, REPEAT; default all).

Prints each violation, a count per invariant, and exits 1 if any.
"""

import argparse
import json
import os
import re
import shlex
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402

def code_bytes(out):
    """Bytes of the `code:` section that follows a page or rg's lines."""
    if out.startswith(b"code: "):
        return len(out)
    at = out.find(b"\ncode: ")
    return 0 if at < 0 else len(out) - at - 1


CUT_NOTE_RE = re.compile(rb"(\d+) of (\d+) matching lines")
TOK_RE = re.compile(rb"~\d+tok\b")
PASSTHROUGH_CAP = 100 * 1024  # bytes; docs/design.md: "100 KB by default"
INVARIANTS = ["I1", "I2", "I3", "I4", "I5", "I6", "RGJSON", "ERR", "PANIC",
              "EXIT", "CALL", "COLD", "BUDGET", "AGAIN", "REPEAT"]
# --checks: CORE is the per-query I1-I6/RGJSON/CALL check (and --variants),
# MEMORY the session-memory pass; the other four are the page checks (#34).
CHECKS = ["CORE", "MEMORY", "COLD", "BUDGET", "AGAIN", "REPEAT"]
JSON_MS_RE = re.compile(rb'"elapsed_ms":\s*\d+')
# smart's JSON says how many of its definitions were embedded now, the
# rest coming from the cache: like the milliseconds, the one figure a
# warm run may change (#54 item 12).
JSON_EMBEDDED_RE = re.compile(rb'"embedded":\s*\d+')


def masked(out):
    """Output with the elapsed milliseconds (text and JSON) and smart's
    count of definitions embedded now masked."""
    out = JSON_MS_RE.sub(b'"elapsed_ms":N', bl.MS_RE.sub(b"Nms", out))
    return JSON_EMBEDDED_RE.sub(b'"embedded":N', out)


class Volume:
    """Every scout run, through bl.run: invocations, panics, and exit
    codes outside the documented 0-3."""

    def __init__(self, scout):
        self.scout, self.runs = scout, 0
        self.panics, self.bad_exits = [], []
        self._lock = threading.Lock()
        inner = bl.run

        def run(argv, cwd, **kw):
            r = inner(argv, cwd, **kw)
            if isinstance(argv, list) and argv and argv[0] == self.scout:
                with self._lock:
                    self.runs += 1
                    if b"internal error" in r.err or b"panicked at" in r.err:
                        self.panics.append((argv[1:], first_line(r.err)))
                    if not r.timed_out and r.code not in (0, 1, 2, 3):
                        self.bad_exits.append((argv[1:], r.code))
            return r
        bl.run = run


# rg file types for the commonest extensions (for --type variants).
EXT_TYPES = {"rs": "rust", "py": "py", "go": "go", "c": "c", "h": "c",
             "ts": "ts", "tsx": "ts", "js": "js", "java": "java",
             "rb": "ruby", "cc": "cpp", "cpp": "cpp", "md": "markdown",
             "tcl": "tcl", "json": "json", "toml": "toml"}


class Variant(bl.Query):
    """A derived query under extra flags: scout's and rg's equivalent.
    `light` variants get the lighter check (see the module doc)."""

    def __init__(self, base, name, scout_extra, rg_extra=(), fixed=False,
                 light=None):
        super().__init__(base.text, base.kind, base.files, base.stratum)
        self.base, self.name = base, name
        self.scout_extra, self.rg_extra = list(scout_extra), list(rg_extra)
        self.fixed, self.light = fixed, light

    def rg_flags(self):
        f = bl.Query.rg_flags(self)
        if self.fixed and "-F" not in f:
            f = ["-F"] + f
        return f + self.rg_extra

    def scout_flags(self):
        return bl.Query.scout_flags(self) + self.scout_extra

    def label(self):
        return "%s [%s]" % (bl.Query.label(self), self.name)


def variants(q, ext):
    """The flag combinations a derived query is checked under."""
    out = []
    glob = ["-g", "*." + ext] if ext else []
    ftype = ["--type", EXT_TYPES[ext]] if ext in EXT_TYPES else []
    out.append(Variant(q, "-w", ["-w"], ["-w"]))
    if q.kind == "ident":
        out.append(Variant(q, "-i", ["-i"], ["-i"]))
        out.append(Variant(q, "-i -w", ["-i", "-w"], ["-i", "-w"]))
        out.append(Variant(q, "--kind symbol", ["--kind", "symbol"], ["-w"],
                           fixed=True))
    if q.kind == "regex" and " " not in q.text:
        # (With a space, -F makes a phrase, whose any-word fallback rg
        # has no flag for.)
        out.append(Variant(q, "-F", ["-F"], [], fixed=True))
    if glob:
        out.append(Variant(q, "-g", glob, glob))
        out.append(Variant(q, "-w -g", ["-w"] + glob, ["-w"] + glob))
    if ftype:
        out.append(Variant(q, "--type", ftype, ftype))
    out.append(Variant(q, "-m 1", ["-m", "1"]))
    out.append(Variant(q, "--budget-tokens 300", ["--budget-tokens", "300"]))
    out.append(Variant(q, "--budget-tokens 0", ["--budget-tokens", "0"]))
    out.append(Variant(q, "--page 2", ["--budget-tokens", "300", "--page", "2"],
                       light="page"))
    out.append(Variant(q, "-l", ["-l"], light="files"))
    out.append(Variant(q, "call", [], light="call"))
    if q.kind == "ident" and glob:
        out.append(Variant(q, "call -i -g", ["-i", "-g", "*." + ext],
                           ["-i", "-g", "*." + ext], light="call"))
    return out


def commonest_ext(repo):
    """The commonest file extension among the files rg searches."""
    seen = {}
    for p in bl.rg_files(repo):
        base = os.path.basename(p)
        if b"." in base.lstrip(b"."):
            e = base.rsplit(b".", 1)[1].decode(errors="replace")
            seen[e] = seen.get(e, 0) + 1
    return max(sorted(seen), key=lambda e: seen[e]) if seen else None


def call_request(q):
    """The `scout call` search request with the variant's flags."""
    req = {"mode": "search", "query": q.text, "path": "."}
    flags = q.scout_flags()
    i = 0
    while i < len(flags):
        f = flags[i]
        if f == "-i":
            req["-i"] = True
        elif f == "-g":
            req["glob"], i = flags[i + 1], i + 1
        elif f == "--type":
            req["type"], i = flags[i + 1], i + 1
        elif f == "--budget-tokens":
            req["budget_tokens"], i = int(flags[i + 1]), i + 1
        elif f == "--page":
            req["page"], i = int(flags[i + 1]), i + 1
        elif f == "--kind":
            req["kind"], i = flags[i + 1], i + 1
        else:
            raise ValueError("no request field for %s" % f)
        i += 1
    return req


class Checker:
    def __init__(self, repo, scout, env, timeout, extra):
        self.repo, self.scout, self.env = repo, scout, env
        self.timeout, self.extra = timeout, extra
        self.exists = bl.repo_exists(repo)
        self.anchorless_json = False
        self._files = {}
        self._lock = threading.Lock()

    # -------------------------------------------------------------- helpers

    def file_line(self, path, n):
        """Line n (1-based) of REPO/path without its newline, or None."""
        with self._lock:
            lines = self._files.get(path)
        if lines is None:
            try:
                with open(os.path.join(os.fsencode(self.repo), path), "rb") as fh:
                    lines = fh.read().split(b"\n")
            except OSError:
                lines = []
            with self._lock:
                if len(self._files) > 2000:
                    self._files.clear()
                self._files[path] = lines
        return lines[n - 1] if 0 < n <= len(lines) else None

    def scout_run(self, q, json_mode=False, rg_json=False):
        """scout search Q .; rg_json: reading rg's --json events
        (SCOUT_RG_OUTPUT=json) instead of its plain records."""
        argv = [self.scout, "search"] + self.extra + q.scout_flags()
        if json_mode:
            argv.append("--json")
        env = dict(self.env, SCOUT_RG_OUTPUT="json") if rg_json else self.env
        return bl.run(argv + [q.text, "."], self.repo, env=env,
                      timeout=self.timeout)

    def check_rg_json(self, q, text, js):
        """RGJSON: the ranked search prints the same bytes (text and --json,
        stdout, stderr and exit code) whether it reads rg's plain records or
        its --json events."""
        v = []
        for name, ran, json_mode in (("text", text, False), ("--json", js, True)):
            other = self.scout_run(q, json_mode=json_mode, rg_json=True)
            if other.timed_out:
                v.append(("ERR", "SCOUT_RG_OUTPUT=json %s timed out" % name))
                continue
            for part, x, y in (("stdout", ran.out, other.out),
                               ("stderr", ran.err, other.err)):
                if masked(x) != masked(y):
                    v.append(("RGJSON", "%s %s differs with SCOUT_RG_OUTPUT=json: %s"
                              % (name, part, first_diff(masked(x), masked(y)))))
            if ran.code != other.code:
                v.append(("RGJSON", "%s exit %s, with SCOUT_RG_OUTPUT=json %s"
                          % (name, ran.code, other.code)))
        return v

    def rg_counts(self, q):
        """({path: matched lines}, Run) from `rg -c`."""
        r = bl.run(["rg", "-c", "--with-filename"] + q.rg_flags()
                   + ["-e", q.text, "."],
                   self.repo, timeout=self.timeout * 4)
        counts = {}
        for raw in bl.split_lines(r.out):
            path, _, n = raw.rpartition(b":")
            if path and n.isdigit():
                counts[bl.strip_dot(path)] = int(n)
        return counts, r

    def rg_lines(self, q, paths=None):
        """Set of `rg -n` lines with './' stripped, their byte total and the
        Run; with paths, only those files are searched. --with-filename:
        rg given one file path prints no file name (issue #28), and every
        line here must read `path:line:text` like scout's."""
        target = (["./" + os.fsdecode(p) for p in sorted(paths)]
                  if paths is not None else ["."])
        r = bl.run(["rg", "-n", "--no-heading", "--with-filename"]
                   + q.rg_flags() + ["-e", q.text, "--"] + target, self.repo,
                   timeout=self.timeout * 4)
        lines = [bl.strip_dot(l) for l in bl.split_lines(r.out)]
        # Raw stdout bytes: scout's plain output keeps rg's "./" too.
        return set(lines), len(r.out), r

    def rg_json_counts(self, q):
        """{path: matched lines} from the `end` events of `rg --json`,
        filtered by a second rg so Python parses one line per file. rg -c
        leaves out binary files whose match came before the NUL byte,
        which rg -n and rg --json (hence scout) count; this settles it."""
        import subprocess
        p1 = subprocess.Popen(["rg", "--json"] + q.rg_flags()
                              + ["-e", q.text, "."], cwd=self.repo,
                              stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
        p2 = subprocess.Popen(["rg", "-a", "--no-line-number",
                               r'^\{"type":"end"'], stdin=p1.stdout,
                              stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
        p1.stdout.close()
        try:
            out, _ = p2.communicate(timeout=self.timeout * 4)
        except subprocess.TimeoutExpired:
            p2.kill()
            p1.kill()
            return None
        finally:
            p1.wait()
        counts = {}
        for raw in bl.split_lines(out):
            try:
                d = json.loads(raw)["data"]
            except (ValueError, KeyError):
                continue
            path = d["path"].get("text")
            path = (os.fsencode(path) if path is not None else
                    __import__("base64").b64decode(d["path"].get("bytes", "")))
            n = d.get("stats", {}).get("matched_lines", 0)
            if n:
                counts[bl.strip_dot(path)] = n
        return counts

    # --------------------------------------------------------------- checks

    def check(self, q):
        """Returns (violations [(inv, message)], notes [str], facts dict)."""
        v, notes = [], []
        anchorless = q.kind == "anchorless"
        t1 = self.scout_run(q)
        t2 = self.scout_run(q)
        # --json ranks even an anchorless pattern: every line of the tree
        # for `.`, over a minute on the Python stdlib; opt-in.
        js = (self.scout_run(q, json_mode=True)
              if not anchorless or self.anchorless_json
              else bl.Run([], 0, b"", b"", 0.0))
        if anchorless:
            # rg -n of `.` over a big tree is gigabytes: count with rg -c,
            # and check printed lines against rg on the printed files only.
            counts, rgc = self.rg_counts(q)
            rg_set = rg_bytes = None
        else:
            # One rg -n gives the lines, their bytes and the counts.
            rg_set, rg_bytes, rgc = self.rg_lines(q)
            counts = {}
            for path, _, _ in bl.parse_plain(rgc.out, self.exists):
                counts[path] = counts.get(path, 0) + 1
        facts = {"scout_ms": round(t1.secs * 1000, 1)}
        for name, r in (("scout", t1), ("scout (2nd)", t2),
                        ("scout --json", js), ("rg", rgc)):
            if r.timed_out:
                v.append(("ERR", "%s timed out after %.0fs" % (name, r.secs)))
            elif name.startswith("scout") and r.code not in (0, 1, 3):
                v.append(("ERR", "%s exit %s: %s" % (name, r.code, first_line(r.err))))
        if any(x[0] == "ERR" for x in v):
            return v, notes, facts
        hits, nfiles = sum(counts.values()), len(counts)
        claimed = doc_hits(js.out)
        m = CUT_NOTE_RE.search(t1.err)
        if claimed is None and m:
            claimed = int(m.group(2))
        if anchorless and claimed is not None and claimed != hits:
            exact = self.rg_json_counts(q)
            if exact is not None:
                notes.append("rg -c said %d hits, rg --json %d" % (
                    hits, sum(exact.values())))
                counts = exact
                hits, nfiles = sum(counts.values()), len(counts)
        facts.update(hits=hits, files=nfiles)
        if not anchorless:
            v += self.check_rg_json(q, t1, js)
        if (t1.code == 1) != (hits == 0):
            v.append(("I3", "scout exit %d but rg finds %d hits" % (t1.code, hits)))

        # I5
        if bl.MS_RE.sub(b"", t1.out) != bl.MS_RE.sub(b"", t2.out):
            if TOK_RE.sub(b"", bl.MS_RE.sub(b"", t1.out)) == \
                    TOK_RE.sub(b"", bl.MS_RE.sub(b"", t2.out)):
                v.append(("I5", "runs differ only in the header's ~Ntok, "
                          "which follows the digits of the elapsed ms: %s"
                          % first_diff(t1.out, t2.out)))
            else:
                v.append(("I5", "two runs differ: %s"
                          % first_diff(t1.out, t2.out)))

        doc = None
        if js.out.strip():
            try:
                doc = json.loads(js.out)
            except ValueError as e:
                v.append(("ERR", "--json output is not JSON: %s" % e))
        mode = doc.get("mode") if isinstance(doc, dict) else None
        page = bl.parse_scout(t1.out, self.exists)
        facts["mode"] = mode or ("ranked" if page.ranked else
                                 "passthrough" if q.kind == "anchorless"
                                 else "plain")
        if mode and (mode == "ranked") != page.ranked:
            notes.append("text is %s but --json says mode=%s" % (
                "ranked" if page.ranked else "plain", mode))
        if page.junk:
            notes.append("unparsed lines in ranked page, e.g. %r" % page.junk[0][:120])

        if anchorless and page.ranked:
            v.append(("I1", "anchorless pattern was ranked, not passed through"))

        # I1 / I6 for plain and passthrough output; I2 for ranked pages.
        if not page.ranked and t1.out:
            # scout keeps rg's "./" prefix; the rg side is stripped too.
            printed = [bl.strip_dot(l) for l in page.plain_raw]
            if anchorless:
                paths = {p for p, _, _ in page.plain}
                rg_set, _, _ = self.rg_lines(q, paths)
            bad = [l for l in printed if l not in rg_set]
            # A passthrough line too long for the rest of the cap is cut
            # around its match, marked as on a ranked page (I4's rule).
            cut_ok = set()
            for path, n, text in page.plain:
                if bl.CUT_RE.match(text) and not self.quote_error(path, n, text, notes):
                    cut_ok.add((path, n))
            bad = [l for l in bad
                   if next(bl.parse_plain(l, self.exists), (None, None))[:2]
                   not in cut_ok]
            if bad:
                v.append(("I1", "%d printed lines are not rg lines, e.g. %r"
                          % (len(bad), bad[0][:160])))
            if len(set(printed)) != len(printed):
                v.append(("I1", "plain output repeats lines"))
            # A plain page prints every rg line; a passthrough page may stop
            # at the cap, and must then say so on stderr.
            cut = len(printed) < hits
            if cut or anchorless:
                facts["mode"] = "passthrough"
                if len(t1.out) > PASSTHROUGH_CAP:
                    v.append(("I1", "passthrough printed %d bytes > %d"
                              % (len(t1.out), PASSTHROUGH_CAP)))
                m = CUT_NOTE_RE.search(t1.err)
                if m and int(m.group(2)) != hits:
                    v.append(("I3", "passthrough says %s of %s lines, rg has "
                              "%d" % (m.group(1).decode(), m.group(2).decode(),
                                      hits)))
                if cut and not t1.err.strip():
                    v.append(("I6" if not anchorless else "I1",
                              "plain output prints %d of rg's %d lines and "
                              "says nothing on stderr" % (len(printed), hits)))
            elif len(printed) != hits:
                v.append(("I6", "plain output prints %d lines, rg has %d"
                          % (len(printed), hits)))
        elif page.ranked:
            if rg_bytes is None:
                _, rg_bytes, _ = self.rg_lines(q)
            facts["rg_bytes"] = rg_bytes
            facts["bytes"] = len(t1.out)
            evidence = len(t1.out) - code_bytes(t1.out)
            if evidence > rg_bytes:
                v.append(("I2", "ranked page %d bytes > rg -n %d bytes"
                          % (evidence, rg_bytes)))
            # I3 text header and per-file counts
            if page.hits != hits or page.files_count != nfiles:
                v.append(("I3", "header hits=%s files=%s, rg: %d, %d" % (
                    page.hits, page.files_count, hits, nfiles)))
            for path, n, _, _ in page.files:
                if counts.get(path) != n:
                    v.append(("I3", "%s (%dx), rg -c says %s" % (
                        path.decode(errors="replace"), n, counts.get(path))))
            quoted = sum(len(f[3]) for f in page.files)
            if page.shown is not None and page.shown != quoted:
                v.append(("I6", "header shown=%d but the page quotes %d lines"
                          % (page.shown, quoted)))
            for path, n, _, quotes in page.files:
                if len(quotes) > n:
                    v.append(("I6", "%s (%dx) quotes %d lines" % (
                        path.decode(errors="replace"), n, len(quotes))))
            # I4 text quotes
            for path, _, _, quotes in page.files:
                for n, text in quotes:
                    err = self.quote_error(path, n, text, notes)
                    if err:
                        v.append(("I4", "%s:%d %s" % (
                            path.decode(errors="replace"), n, err)))
        elif hits:
            v.append(("I3", "scout printed nothing, rg has %d hits" % hits))
        if page.code:
            # The attached code is a separate, marked section (docs/design.md:
            # "their code follows the matches"); I2 weighs the evidence
            # before it, and the code's size is reported on its own.
            facts["code_bytes"] = code_bytes(t1.out)
            if not page.ranked and rg_bytes is not None \
                    and len(t1.out) - code_bytes(t1.out) > rg_bytes:
                v.append(("I2", "plain output %d bytes > rg -n %d bytes" % (
                    len(t1.out) - code_bytes(t1.out), rg_bytes)))
        # I4 for the code that follows the matches: whole file lines.
        for path, kind, name, first, last, quotes in page.code:
            got = [n for n, _ in quotes]
            if got and (got[0] != first or got[-1] != last
                        or got != list(range(first, last + 1))):
                notes.append("code block %s (%d-%d) quotes lines %d..%d" % (
                    name.decode(errors="replace"), first, last, got[0], got[-1]))
            for n, text in quotes:
                err = self.quote_error(path, n, text, notes)
                if err:
                    v.append(("I4", "code %s:%d %s" % (
                        path.decode(errors="replace"), n, err)))

        if isinstance(doc, dict):
            self.check_json(doc, counts, hits, nfiles, v, notes,
                            page.shown if page.ranked else None)
        return v, notes, facts

    def light_check(self, q):
        """--page 2, -l and `scout call`: exit codes, and I3, I4, I6 on the
        --json document; a call's result must equal scout search --json's."""
        v, notes = [], []
        rg_set, rg_bytes, rgc = self.rg_lines(q)
        counts = {}
        for path, _, _ in bl.parse_plain(rgc.out, self.exists):
            counts[path] = counts.get(path, 0) + 1
        hits, nfiles = sum(counts.values()), len(counts)
        facts = {"mode": "variant " + q.light, "hits": hits}
        js = self.scout_run(q, json_mode=True)
        if js.timed_out:
            return [("ERR", "--json timed out")], notes, facts
        if q.light == "page" and js.code == 2 and b"there is no page" in js.err:
            # A search with one page has no page 2: said, exit 2.
            return v, notes, facts
        if js.code not in (0, 1, 3):
            v.append(("ERR", "exit %s: %s" % (js.code, first_line(js.err))))
            return v, notes, facts
        doc = json.loads(js.out) if js.out.strip() else None
        if q.light == "call":
            req = call_request(q)
            r = bl.run([self.scout, "call", json.dumps(req)], self.repo,
                       env=self.env, timeout=self.timeout)
            try:
                answer = json.loads(r.out)
            except ValueError:
                answer = None
            if r.timed_out or not isinstance(answer, dict):
                v.append(("CALL", "no JSON answer (exit %s): %s"
                          % (r.code, first_line(r.err or r.out))))
                return v, notes, facts
            if answer.get("exit") != r.code or r.code != js.code:
                v.append(("CALL", "answer exit %s, process %s, search %s"
                          % (answer.get("exit"), r.code, js.code)))
            got = answer.get("result")
            if doc is not None or got is not None:
                a, b = dict(got or {}), dict(doc or {})
                # The next-page command is spelled from the request, and
                # its length is in the footer the budget reserves: the
                # layout may differ with it, never the counts.
                same_footer = len(str(a.get("next"))) == len(str(b.get("next")))
                for d in (a, b):
                    for k in ("elapsed_ms", "next", "tokens"):
                        d.pop(k, None)
                    if not same_footer:
                        for k in ("results", "shown", "left_out", "pages",
                                  "defs_not_on_page", "code"):
                            d.pop(k, None)
                if a != b:
                    diff = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
                    v.append(("CALL", "result differs from scout search --json "
                              "in %s" % ", ".join(diff[:5])))
        if isinstance(doc, dict):
            self.check_json(doc, counts, hits, nfiles, v, notes, None)
            if q.light == "files" and any(r.get("lines") for r in doc.get("results", [])):
                v.append(("I6", "-l quotes lines"))
        elif hits:
            v.append(("I3", "no --json document, rg has %d hits" % hits))
        if q.light != "call":
            t1, t2 = self.scout_run(q), self.scout_run(q)
            if bl.MS_RE.sub(b"", t1.out) != bl.MS_RE.sub(b"", t2.out):
                v.append(("I5", "two runs differ: %s" % first_diff(t1.out, t2.out)))
            page = bl.parse_scout(t1.out, self.exists)
            if page.ranked and (page.hits != hits or page.files_count != nfiles):
                v.append(("I3", "header hits=%s files=%s, rg: %d, %d" % (
                    page.hits, page.files_count, hits, nfiles)))
            if page.ranked:
                for path, n, _, _ in page.files:
                    if counts.get(path) != n:
                        v.append(("I3", "%s (%dx), rg says %s" % (
                            path.decode(errors="replace"), n, counts.get(path))))
        return v, notes, facts

    def quote_error(self, path, n, text, notes):
        line = self.file_line(path, n)
        if line is None:
            return "no such line in the file"
        if text == line:
            return None
        if line.endswith(b"\r") and text == line[:-1]:
            notes.append("trailing CR dropped in %s:%d" % (
                path.decode(errors="replace"), n))
            return None
        m = bl.CUT_RE.match(text)
        if not m:
            return "differs from the file: %r vs %r" % (text[:80], line[:80])
        body, k, total = m.group(1), int(m.group(2)), int(m.group(3))
        if total != len(line) and total != len(line.rstrip(b"\r")):
            return "cut says %d bytes, the line has %d" % (total, len(line))
        if cut_matches(body, line, k):
            return None
        return "cut text %r is not a marked substring of %d-byte line " \
               "with %d bytes cut" % (body[:60], len(line), k)

    def check_json(self, doc, counts, hits, nfiles, v, notes, text_shown):
        def g(d, *names):
            for nme in names:
                if nme in d:
                    return d[nme]
            return None
        jh, jf = g(doc, "hits"), g(doc, "files")
        if jh != hits or jf != nfiles:
            v.append(("I3", "--json hits=%s files=%s, rg: %d, %d" % (jh, jf, hits, nfiles)))
        sh, al, lo = (g(doc, "shown") or 0, g(doc, "already_shown") or 0,
                      g(doc, "left_out") or 0)
        if text_shown is not None and text_shown != sh:
            v.append(("I6", "text header shown=%d, --json shown=%d" % (
                text_shown, sh)))
        if sh + al + lo != (jh or 0):
            v.append(("I6", "--json total shown %d + already_shown %d + "
                      "left_out %d != hits %s" % (sh, al, lo, jh)))
        results = g(doc, "results") or []
        for res in results:
            path = os.fsencode(str(g(res, "path") or ""))
            path = bl.strip_dot(path)
            rh = g(res, "hits")
            rs, ra, rl = (g(res, "shown") or 0, g(res, "already_shown") or 0,
                          g(res, "left_out") or 0)
            if rs + ra + rl != rh:
                v.append(("I6", "--json %s: shown %d + already_shown %d + "
                          "left_out %d != hits %s" % (path.decode(errors="replace"),
                                                      rs, ra, rl, rh)))
            if rh is not None and counts.get(path) != rh:
                v.append(("I3", "--json %s hits=%s, rg -c says %s" % (
                    path.decode(errors="replace"), rh, counts.get(path))))
            for ln in g(res, "lines") or []:
                n, text = g(ln, "line", "line_number"), g(ln, "text")
                if not isinstance(n, int) or not isinstance(text, str):
                    continue
                line = self.file_line(path, n)
                if line is None:
                    v.append(("I4", "--json %s:%d: no such line" % (
                        path.decode(errors="replace"), n)))
                    continue
                tb = text.encode("utf-8", "surrogateescape")
                err = json_quote_error(tb, line, ln)
                if err:
                    v.append(("I4", "--json %s:%d %s" % (
                        path.decode(errors="replace"), n, err)))
        if sum(g(r, "hits") or 0 for r in results) > (jh or 0):
            v.append(("I6", "--json per-file hits add up to more than hits"))


def doc_hits(out):
    m = re.search(rb'"hits":(\d+)', out[:4096])
    return int(m.group(1)) if m else None


def cut_matches(body, line, k):
    """body is `…`? + a substring of line + `…`? with k bytes cut."""
    e = bl.ELLIPSIS
    options = [(body, False, False)]
    if body.startswith(e):
        options.append((body[len(e):], True, False))
    if body.endswith(e):
        options.append((body[:-len(e)], False, True))
    if body.startswith(e) and body.endswith(e) and len(body) >= 2 * len(e):
        options.append((body[len(e):-len(e)], True, True))
    for core, lead, trail in options:
        for full in (line, line.rstrip(b"\r")):
            if core not in full or len(full) - len(core) != k:
                continue
            if not lead and not full.startswith(core):
                continue
            if not trail and not full.endswith(core):
                continue
            return True
    return False


def json_quote_error(tb, line, ln):
    """A JSON quote: `text` (lossy UTF-8) is the line minus `cut_before`
    and `cut_after` bytes (older drafts: `cut_bytes`)."""
    lossy = lambda b: b.decode("utf-8", "replace").encode()
    cb, ca = ln.get("cut_before"), ln.get("cut_after")
    if isinstance(cb, int) and isinstance(ca, int):
        for full in (line, line.rstrip(b"\r")):
            if cb + ca > len(full):
                continue
            core = full[cb:len(full) - ca]
            if tb in (core, lossy(core)):
                return None
            # A cut inside a multi-byte character is decoded lossily on
            # its own, so compare leniently when the sides were cut.
            if (cb or ca) and tb.strip("\ufffd".encode()) in lossy(full):
                return None
        return "text %r is not bytes %d..%d of the %d-byte line %r" % (
            tb[:60], cb, len(line) - ca, len(line), line[:60])
    cut = ln.get("cut_bytes") or 0
    if tb in (line, lossy(line), line.rstrip(b"\r"), lossy(line.rstrip(b"\r"))):
        return None
    if cut and any(json_cut_ok(tb, full, cut) for full in (line, lossy(line))):
        return None
    m = bl.CUT_RE.match(tb)
    if m and cut_matches(m.group(1), line, int(m.group(2))):
        return None
    return "text %r is not the file line %r (cut_bytes=%s)" % (
        tb[:60], line[:60], cut)


def json_cut_ok(text, line, cut):
    """JSON carries the cut in cut_bytes, so its text need not hold the
    `…` markers: what is left is a substring, and cut bytes add up."""
    e = bl.ELLIPSIS
    core = text[len(e):] if text.startswith(e) else text
    core = core[:-len(e)] if core.endswith(e) else core
    for full in (line, line.rstrip(b"\r")):
        if core in full and len(full) - len(core) == cut:
            return True
    return False


def first_line(b):
    return b.strip().split(b"\n")[0][:200].decode(errors="replace")


def first_diff(a, b):
    la, lb = a.split(b"\n"), b.split(b"\n")
    for i, (x, y) in enumerate(zip(la, lb)):
        if bl.MS_RE.sub(b"", x) != bl.MS_RE.sub(b"", y):
            return "line %d: %r vs %r" % (i + 1, x[:100], y[:100])
    return "%d vs %d lines" % (len(la), len(lb))


def memory_pass(checker, queries, state, jobs):
    """Runs each query three times, then once with --json, inside its own
    agent session. Checks that a repeat is never larger than the search
    before it (and smaller after a ranked page), that the first run's
    page becomes `already_shown`, and I6 with memory on:
    shown + already_shown + left_out = hits, per file and in total."""
    out = {"runs": 0, "bytes": [0, 0, 0], "violations": []}
    lock = threading.Lock()

    def one(item):
        i, q = item
        env = dict(checker.env)
        env["SCOUT_SESSION_ID"] = "invariants-%d" % i
        argv = [checker.scout, "search"] + checker.extra + q.scout_flags()
        runs = [bl.run(argv + [q.text, "."], checker.repo, env=env,
                       timeout=checker.timeout) for _ in range(3)]
        js = bl.run(argv + ["--json", q.text, "."], checker.repo, env=env,
                    timeout=checker.timeout)
        v = []
        if any(r.timed_out or r.code not in (0, 1, 3) for r in runs + [js]):
            v.append(("ERR", "memory: a run failed or timed out"))
            return v, None
        # Sizes without the header's elapsed milliseconds, whose digits
        # vary from run to run.
        sizes = [len(bl.MS_RE.sub(b"ms", r.out)) for r in runs]
        first_ranked = runs[0].out.startswith(b"query: ")
        if sizes[1] > sizes[0] or (first_ranked and sizes[1] >= sizes[0]):
            v.append(("I6", "memory: second search %d bytes, first %d"
                      % (sizes[1], sizes[0])))
        if sizes[2] > sizes[1]:
            v.append(("I6", "memory: third search %d bytes, second %d"
                      % (sizes[2], sizes[1])))
        try:
            doc = json.loads(js.out)
        except ValueError:
            v.append(("ERR", "memory: --json output is not JSON"))
            return v, sizes
        total = 0
        for r in doc["results"]:
            parts = r["shown"] + r["already_shown"] + r["left_out"]
            if parts != r["hits"]:
                v.append(("I6", "memory: %s shown %d + already %d + left "
                          "out %d != hits %d" % (r["path"], r["shown"],
                                                 r["already_shown"],
                                                 r["left_out"], r["hits"])))
            total += r["already_shown"]
        if doc["shown"] + doc["already_shown"] + doc["left_out"] != doc["hits"]:
            v.append(("I6", "memory: totals do not add up to hits"))
        if first_ranked and total == 0:
            v.append(("I6", "memory: nothing already shown after 3 searches"))
        return v, sizes

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for (i, q), (v, sizes) in zip(enumerate(queries),
                                      pool.map(one, enumerate(queries))):
            with lock:
                if sizes:
                    out["runs"] += 1
                    for k in range(3):
                        out["bytes"][k] += sizes[k]
                if v:
                    out["violations"].append((q, v))
    return out


# ------------------------------------------------------ page checks (#34)
#
# COLD, BUDGET, AGAIN and REPEAT look at whole pages of every command
# (`search` text, `--structural`, `--callers-of`, `smart`, `grep`, `files`,
# `read`), not at one query's counts. Each "subject" below is one command
# line; `Pages` runs the four checks on a list of subjects. The comparing
# and weighing is done by the pure functions just below, which the tests
# feed fake pages.

BYTES_PER_TOKEN = 4  # src/search/page.rs: BYTES_PER_TOKEN; `~Ntok` = ceil(bytes/4)
DEFAULT_BUDGET_TOKENS = 1500  # `scout search|smart|read --help`: [default: 1500]
DEFAULT_HEAD_LIMIT = 250  # `scout grep --help`: --head-limit [default: 250]
DEFAULT_FILES_LIMIT = 100  # `scout files --help`: --limit [default: 100]
BUDGETS = (300, 1000, None)  # None: the default, flag left out
BUDGET_PAGES = 3  # pages 1..3 of each budget
AGAIN_PAGES = 5  # pages 1..5 for AGAIN
AGAIN_BUDGET = 300  # small pages, so a search has several
REPEATS = 4  # REPEAT: the same search this many times in one session
READ_NEXT_RE = re.compile(rb"^\+\d+ lines not shown: (scout read .*)$", re.M)
NO_PAGE_RE = re.compile(rb"there is no page \d+")
# A budget that cannot show one line is refused by design (#54), within
# the budget (nothing printed): not an error.
TOO_SMALL_RE = re.compile(rb"is too small for a page of this search")
PAGE_RE = re.compile(rb"\bpage=(\d+)/(\d+)")
HEADER_TOK_RE = re.compile(rb"~(\d+)tok\b")
# A file's line on a ranked page: `path  (Nx) [def]`, or, with session
# memory, the one line of a file whose matches were all shown already
# (`path  (Nx) ...` with more words after the count).
PAGE_FILE_RE = re.compile(rb"^(\S.*?)  \((\d+)x\)")
FOOTER_PREFIXES = (b"query: ", b"note:", b"repro:", b"fallback:", b"+",
                   b"code: ", b"scope:", b"callers", b"cannot tell")


def budget_limit(tokens):
    """Bytes a page of `tokens` may print (0 = no limit: None)."""
    return tokens * BYTES_PER_TOKEN if tokens else None


def check_budget(label, out, tokens):
    """BUDGET for a token-budgeted page (`search`, `smart`, `read`): the
    whole stdout, the attached `code:` section included, is at most
    tokens x 4 bytes. scout gives the attached code the room the page left
    (src/search/attach.rs: budget minus the page's bytes), so code is no
    excuse; the elapsed ` NNms` of the header counts too (it is printed).
    Returns [(inv, message)]."""
    limit = budget_limit(tokens)
    if limit is None or len(out) <= limit:
        return []
    code = code_bytes(out)
    head = out.split(b"\n", 1)[0]
    ms = bl.MS_RE.search(head)
    parts = ["over by %d" % (len(out) - limit)]
    if code:
        parts.append("code: section %d bytes, the page before it %d"
                     % (code, len(out) - code))
    if ms and len(out) - len(ms.group(0)) - 1 <= limit:
        parts.append("within the budget without the header's elapsed time")
    return [("BUDGET", "%s: %d bytes > %d tokens x %d = %d bytes (%s)" % (
        label, len(out), tokens, BYTES_PER_TOKEN, limit, "; ".join(parts)))]


def tok_note(label, out):
    """A note when the header's `~Ntok` is not the page's own size: scout
    estimates the page without its elapsed time and without the attached
    code, ceil(bytes / 4). None when it agrees or there is no header."""
    head = out.split(b"\n", 1)[0]
    m = HEADER_TOK_RE.search(head) if head.startswith(b"query: ") else None
    if not m:
        return None
    ms = bl.MS_RE.search(head)
    page = len(out) - code_bytes(out) - (len(ms.group(0)) + 1 if ms else 0)
    want = -(-page // BYTES_PER_TOKEN)
    if int(m.group(1)) == want:
        return None
    return "%s: header ~%stok, the page (no code, no elapsed) is %d bytes = " \
           "%d tokens" % (label, m.group(1).decode(), page, want)


def literal_run(pattern):
    """The longest run of literal characters a regex must match (an
    approximation of scout's planner, src/search/query.rs): escaped
    punctuation is literal; classes, `\w`-like escapes, `.`, anchors and
    groups break a run; `*`, `?` and `{0,...}` make the character before
    them optional. With a top-level `|`, the shortest branch's run."""
    depth, branches, start = 0, [], 0
    for i, c in enumerate(pattern):
        if c == "\\":
            continue
        if c == "(" and (i == 0 or pattern[i - 1] != "\\"):
            depth += 1
        elif c == ")" and (i == 0 or pattern[i - 1] != "\\"):
            depth -= 1
        elif c == "|" and depth == 0 and (i == 0 or pattern[i - 1] != "\\"):
            branches.append(pattern[start:i])
            start = i + 1
    if branches:
        return min(literal_run(b) for b in branches + [pattern[start:]])
    atoms, i = [], 0  # a literal character, or None for anything else
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            nxt = pattern[i + 1:i + 2]
            atoms.append(nxt if nxt and not nxt.isalnum() else None)
            i += 2
        elif c == "[":
            j = pattern.find("]", i + 2)
            atoms.append(None)
            i = len(pattern) if j < 0 else j + 1
        elif c == "(":
            d, j = 0, i
            while j < len(pattern):
                if pattern[j] == "\\":
                    j += 2
                    continue
                d += {"(": 1, ")": -1}.get(pattern[j], 0)
                if d == 0:
                    break
                j += 1
            atoms.append(None)
            i = j + 1
        elif c in "*?{":
            optional = c != "{" or re.match(r"\{0?[,}]|\{0,", pattern[i:])
            if optional and atoms:
                atoms[-1] = None
            atoms.append(None)
            i = (pattern.find("}", i) + 1 or len(pattern)) if c == "{" else i + 1
        elif c == "+":
            atoms.append(None)
            i += 1
        elif c in ".^$)":
            atoms.append(None)
            i += 1
        else:
            atoms.append(c)
            i += 1
    best = cur = 0
    for a in atoms:
        cur = cur + 1 if a is not None else 0
        best = max(best, cur)
    return best


def check_count(label, count, limit, what):
    """BUDGET for the faithful views: `grep` prints at most --head-limit
    results, `files` at most --limit paths (their budget is a count; they
    have no --budget-tokens)."""
    if limit and count > limit:
        return [("BUDGET", "%s: %d %s > limit %d" % (label, count, what, limit))]
    return []


def grep_results(out, mode):
    """Results of a `scout grep` page: the lines that are not its footer
    (`[showing files 1-3 of 6; next page: ...]`, `[total: ...]`) and, in content mode, not context lines
    (`path-N-text`) or group separators (`--`); in count mode, not the
    total."""
    n = 0
    for raw in bl.split_lines(out):
        if not raw or raw.startswith((b"[", b"note:", b"scout:")):
            continue
        if mode == "content":
            if raw == b"--" or not bl.PLAIN_RE.match(raw):
                continue
        if mode == "count" and not re.match(rb"^.+:\d+$", raw):
            continue
        n += 1
    return n


def check_cold(label, cold, warm):
    """COLD: a run with a fresh cache directory and the next run in the
    same cache print the same stdout (elapsed milliseconds, text and JSON,
    masked) and exit the same. cold, warm: bl.Run."""
    v = []
    if cold.code != warm.code:
        v.append(("COLD", "%s: exit %s cold, %s warm" % (label, cold.code, warm.code)))
    a, b = masked(cold.out), masked(warm.out)
    if a != b:
        v.append(("COLD", "%s: cold %d bytes, warm %d bytes, %s" % (
            label, len(cold.out), len(warm.out), first_diff(a, b))))
    return v


def page_files(out):
    """[path] of a ranked text page, in page order (a file fully shown
    before, collapsed to one line, is still on the page); for rg's plain
    lines (printed where they are smaller than the page, I2), the files
    they name, in order."""
    lines = bl.split_lines(out)
    if not lines:
        return []
    if not lines[0].startswith(b"query: "):
        seen = []
        for path, _, _ in bl.parse_plain(out):
            if path not in seen:
                seen.append(path)
        return seen
    files = []
    for raw in lines[1:]:
        if raw.startswith(b"code: "):
            break
        if raw[:1] in (b" ", b"\t") or raw.startswith(FOOTER_PREFIXES):
            continue
        m = PAGE_FILE_RE.match(raw)
        if m:
            files.append(bl.strip_dot(m.group(1)))
    return files


def page_count(out):
    """N of the header's page=P/N, or None."""
    m = PAGE_RE.search(out.split(b"\n", 1)[0])
    return int(m.group(2)) if m else None


def check_again(label, plain, again):
    """AGAIN: page by page, the files of a page run in a session that has
    seen some of it equal the files of the same page with --again, and so
    does the page count when both are ranked pages (where one is rg's plain
    lines, printed because they are smaller (I2), only its files count).
    plain, again: [stdout of page 1, 2, ...]."""
    v = []
    for i, (p, a) in enumerate(zip(plain, again)):
        fp, fa = page_files(p), page_files(a)
        if fp != fa:
            only_p = [f for f in fp if f not in fa]
            only_a = [f for f in fa if f not in fp]
            v.append(("AGAIN", "%s --page %d: %d files, with --again %d; only "
                      "without: %s; only with: %s%s" % (
                          label, i + 1, len(fp), len(fa),
                          shown_paths(only_p), shown_paths(only_a),
                          "" if only_p or only_a else " (order differs)")))
        np_, na = page_count(p), page_count(a)
        if np_ != na and (np_ and na or fp != fa):
            say = lambda n: "%d/%s" % (i + 1, n) if n else "none (rg's plain lines)"
            v.append(("AGAIN", "%s --page %d: page=%s, with --again page=%s" % (
                label, i + 1, say(np_), say(na))))
    if len(plain) != len(again):
        v.append(("AGAIN", "%s: %d pages, with --again %d" % (
            label, len(plain), len(again))))
    return v


def shown_paths(paths, most=3):
    s = ", ".join(p.decode(errors="replace") for p in paths[:most])
    return (s + (" (+%d)" % (len(paths) - most) if len(paths) > most else "")) or "-"


def check_repeat(label, outs):
    """REPEAT: the same search run again in one session prints at most as
    many bytes as the first run (elapsed milliseconds masked). outs: the
    stdouts in run order."""
    sizes = [len(bl.MS_RE.sub(b"ms", o)) for o in outs]
    v = []
    for i, n in enumerate(sizes[1:], 2):
        if n > sizes[0]:
            v.append(("REPEAT", "%s: run %d prints %d bytes > first run %d "
                      "(sizes %s)" % (label, i, n, sizes[0],
                                      ", ".join(map(str, sizes)))))
    return v


class Subject:
    """One command line of a page check. argv = [scout] + head + options +
    tail; kind: search, structural, callers, smart, read, grep, files."""

    def __init__(self, kind, label, head, tail, mode=None, anchorless=False):
        self.kind, self.label, self.head, self.tail = kind, label, head, tail
        self.mode = mode  # grep --output-mode
        # A text search with no 3-character literal anchor passes rg's
        # lines through, bounded by the passthrough cap, not the budget.
        self.anchorless = anchorless

    @property
    def paged(self):
        return self.kind in ("search", "structural", "callers")

    @property
    def tokened(self):
        return self.kind in ("search", "structural", "callers", "smart", "read")


# Structural patterns per language (patterns of bench/structural.py and
# simple calls), by scout's --lang name; the tree's commonest extension
# picks the language.
STRUCTURAL = {
    "python": ["$F($A)", "self.$A = $B", "isinstance($X, $T)", "return $X"],
    "rust": ["$F($A)", "$X.unwrap()", "Some($X)", "$X.clone()"],
    "javascript": ["$F($A)", "typeof $X === $T", "throw $E", "return $X"],
    "typescript": ["$F($A)", "$X: string", "readonly $X: $T", "$X | undefined"],
    "go": ["$F($A)", "fmt.Sprintf($$$)", "if err != nil { return $$$ }"],
    "c": ["$F($A)", "return $X;", "sizeof($T)", "$X->$Y = $Z"],
}
EXT_LANG = {"py": "python", "rs": "rust", "js": "javascript", "mjs": "javascript",
            "cjs": "javascript", "jsx": "javascript", "ts": "typescript",
            "tsx": "typescript", "go": "go", "c": "c", "h": "c"}
# Definition of a function NAME, per language, for --callers-of targets.
FUNC_DEF = {
    "python": r"^\s*(?:async\s+)?def\s+([A-Za-z_]\w{3,})\s*\(",
    "rust": r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+|async\s+|unsafe\s+)*fn\s+([A-Za-z_]\w{3,})\s*[(<]",
    "javascript": r"^\s*(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]{3,})\s*\(",
    "typescript": r"^\s*(?:export\s+)?(?:declare\s+)?function\s+([A-Za-z_$][\w$]{3,})\s*[(<]",
    "go": r"^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w{3,})\s*\(",
    "c": r"^[A-Za-z_][\w \*]*?\b([A-Za-z_]\w{3,})\s*\([^;]*$",
}
LANG_GLOB = {"python": "*.py", "rust": "*.rs", "javascript": "*.{js,mjs,cjs,jsx}",
             "typescript": "*.{ts,tsx}", "go": "*.go", "c": "*.{c,h}"}


def tree_lang(repo):
    """The scout --lang of the tree's commonest source extension (ignoring
    others), or None."""
    seen = {}
    for p in bl.rg_files(repo):
        base = os.path.basename(p)
        if b"." in base.lstrip(b"."):
            e = base.rsplit(b".", 1)[1].decode(errors="replace")
            if e in EXT_LANG:
                lang = EXT_LANG[e]
                seen[lang] = seen.get(lang, 0) + 1
    return max(sorted(seen), key=lambda k: seen[k]) if seen else None


def words_of(ident):
    """`parse_header`, `parseHeader` -> `parse header` (a smart question)."""
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", ident).replace("_", " ")
    return " ".join(s.lower().split()) or ident


def spread(queries, n):
    """n queries taken round-robin over (kind, stratum), so that rare and
    common identifiers, regexes and -i queries all get page checks."""
    groups = {}
    for q in queries:
        groups.setdefault((q.kind, str(q.stratum)), []).append(q)
    order, out = sorted(groups), []
    while len(out) < n and any(groups.values()):
        for key in order:
            if groups[key] and len(out) < n:
                out.append(groups[key].pop(0))
    return out


class Pages:
    """Runs COLD, BUDGET, AGAIN and REPEAT over subjects (see the module
    doc). Every run gets its own private cache and state directories,
    under one temp dir removed at the end."""

    def __init__(self, checker, root, log=lambda m: None):
        self.c, self.root, self.log = checker, root, log
        self._n = 0
        self._lock = threading.Lock()
        self.runs = 0
        self._defaults = {}

    def default_of(self, command, flag, fallback):
        """The `[default: N]` `scout COMMAND --help` gives FLAG, or
        fallback (the figure the constants above hold)."""
        key = (command, flag)
        with self._lock:
            if key in self._defaults:
                return self._defaults[key]
        r = bl.run([self.c.scout, command, "--help"], self.c.repo,
                   env=self.fresh_env(), timeout=self.c.timeout)
        m = re.search(re.escape(flag).encode() + rb" <N>.*?\[default: (\d+)", r.out, re.S)
        n = int(m.group(1)) if m else fallback
        with self._lock:
            self._defaults[key] = n
        return n

    def fresh_env(self, session=None):
        """A new cache and state directory (and an agent session when
        `session`): nothing cached, nothing remembered."""
        with self._lock:
            self._n += 1
            d = os.path.join(self.root, "p%d" % self._n)
        env = bl.scout_env(d)
        if session:
            env["SCOUT_SESSION_ID"] = "invariants-pages-%s-%d" % (session, self._n)
        return env

    def run(self, s, env, options=()):
        with self._lock:
            self.runs += 1
        return bl.run([self.c.scout] + s.head + list(options) + s.tail,
                      self.c.repo, env=env, timeout=self.c.timeout)

    # ---------------------------------------------------------- subjects

    def subjects(self, queries, n, lang):
        """Subjects for a tree: n text searches (derived queries), up to
        three structural patterns and three --callers-of targets of the
        tree's language, three smart questions, three files to read (and
        one --symbol), grep in its three modes, files by glob."""
        extra = self.c.extra
        out = []
        texts = [q for q in queries if q.kind != "anchorless"][:n]
        for q in texts:
            run = len(q.text) if q.literal else literal_run(q.text)
            out.append(Subject("search", "search " + q.label(),
                               ["search"] + extra + q.scout_flags(), [q.text, "."],
                               anchorless=run < 3))
        if lang in STRUCTURAL:
            for pat in STRUCTURAL[lang][:3]:
                out.append(Subject("structural", "search --structural --lang %s %s"
                                   % (lang, pat),
                                   ["search", "--structural", "--lang", lang] + extra,
                                   ["-e", pat, "."]))
            for target in self.callers_targets(queries, lang, 3):
                out.append(Subject("callers", "search --callers-of " + target,
                                   ["search", "--callers-of", target] + extra, []))
        for q in [q for q in texts if q.kind == "ident"][:3]:
            w = words_of(q.text)
            out.append(Subject("smart", "smart %r" % w, ["smart"], [w, "."]))
        for path, sym in self.read_targets(lang, 3):
            out.append(Subject("read", "read " + path, ["read"], [path]))
            if sym:
                out.append(Subject("read", "read %s --symbol %s" % (path, sym),
                                   ["read", "--symbol", sym], [path]))
        pat = next((q.text for q in texts if q.kind == "ident"), None)
        if pat:
            for mode in ("content", "files_with_matches", "count"):
                out.append(Subject("grep", "grep --output-mode %s %s" % (mode, pat),
                                   ["grep", "--output-mode", mode], ["-e", pat, "."],
                                   mode=mode))
        glob = LANG_GLOB.get(lang, "*")
        out.append(Subject("files", "files " + glob, ["files"], [glob, "."]))
        out.append(Subject("files", "files *", ["files"], ["*", "."]))
        return out

    def callers_targets(self, queries, lang, most):
        """PATH#NAME of functions defined once in the tree, spelled with a
        call 3+ times by rg, that --callers-of attributes at least two
        call sites to (at most 15 tried with scout)."""
        pat = FUNC_DEF.get(lang)
        if not pat:
            return []
        r = bl.run(["rg", "-n", "--no-heading", "--with-filename", "-g",
                    LANG_GLOB[lang], "-e", pat, "."], self.c.repo,
                   timeout=self.c.timeout * 4)
        defs = {}
        rx = re.compile(pat.encode())
        for path, _, text in bl.parse_plain(r.out):
            m = rx.search(text)
            if m:
                defs.setdefault(m.group(1), []).append(path)
        once = sorted(((name, paths[0]) for name, paths in defs.items()
                       if len(paths) == 1 and not name.startswith(b"test")),
                      key=lambda x: bl._stable_key(1, x[0]))
        found = []
        tried = 0
        for name, path in once[:400]:
            if len(found) >= most or tried >= 15:
                break
            c = bl.run(["rg", "-c", "-w", "-g", LANG_GLOB[lang], "-e",
                        re.escape(name.decode()) + r"\s*\(", "."],
                       self.c.repo, timeout=self.c.timeout)
            per = [int(l.rpartition(b":")[2]) for l in bl.split_lines(c.out)
                   if l.rpartition(b":")[2].isdigit()]
            # The definition's own line and 3+ calls.
            if sum(per) < 4:
                continue
            tried += 1
            target = "%s#%s" % (path.decode(errors="replace"), name.decode())
            js = bl.run([self.c.scout, "search", "--callers-of", target, "--json"],
                        self.c.repo, env=self.fresh_env(),
                        timeout=self.c.timeout)
            try:
                doc = json.loads(js.out)
            except ValueError:
                continue
            if js.code == 0 and (doc.get("hits") or 0) >= 2:
                found.append(target)
        self.log("callers-of targets: %s" % (", ".join(found) or "none"))
        return found

    def read_targets(self, lang, most):
        """(path, symbol or None): the largest files of the tree's language
        (a read longer than any budget), with a function defined in each."""
        r = bl.run(["rg", "--files", "-g", LANG_GLOB.get(lang, "*")],
                   self.c.repo, timeout=self.c.timeout * 4)
        paths = [bl.strip_dot(p) for p in bl.split_lines(r.out)]
        sized = []
        for p in paths:
            try:
                sized.append((os.path.getsize(os.path.join(os.fsencode(self.c.repo), p)), p))
            except OSError:
                pass
        sized.sort(key=lambda x: (-x[0], x[1]))
        out = []
        rx = re.compile(FUNC_DEF.get(lang, r"^\s*def\s+(\w{4,})").encode(), re.M)
        for _, p in sized:
            if len(out) == most:
                break
            try:
                with open(os.path.join(os.fsencode(self.c.repo), p), "rb") as fh:
                    head = fh.read(1 << 20)
            except OSError:
                continue
            # A binary file (a NUL byte where rg looks for one) is one
            # `scout read` refuses by design (#54: a .png was read, and its
            # refusal counted as an error); any other refusal is one.
            if b"\0" in head[:8192]:
                continue
            m = rx.search(head)
            out.append((p.decode(errors="replace"),
                        m.group(1).decode(errors="replace") if m else None))
        return out

    # ------------------------------------------------------------ checks

    def cold(self, s):
        """COLD: text (and --json for search and smart) with a fresh
        cache, then again in the same cache."""
        v = []
        forms = [("", [])]
        if s.tokened and s.kind != "read":
            # (read, grep and files have no --json)
            forms.append((" --json", ["--json"]))
        for name, opts in forms:
            env = self.fresh_env()
            cold = self.run(s, env, opts)
            warm = self.run(s, env, opts)
            if cold.timed_out or warm.timed_out:
                v.append(("ERR", "%s%s: timed out" % (s.label, name)))
                continue
            if cold.code == 2 and warm.code == 2:
                v.append(("ERR", "%s%s: exit 2: %s" % (s.label, name,
                                                      first_line(cold.err))))
                continue
            v += check_cold(s.label + name, cold, warm)
        return v, []

    def budget(self, s):
        """BUDGET: pages 1..3 at each budget (--budget-tokens for search,
        smart, read; --head-limit/--offset for grep; --limit for files)."""
        v, notes = [], []
        env = self.fresh_env()
        if s.kind == "grep":
            for limit in (10, 50, None):
                for p in range(1, BUDGET_PAGES + 1):
                    h = limit or self.default_of("grep", "--head-limit",
                                                 DEFAULT_HEAD_LIMIT)
                    opts = (["--head-limit", str(limit)] if limit else []) + (
                        ["--offset", str((p - 1) * h)] if p > 1 else [])
                    r = self.run(s, env, opts)
                    if r.code not in (0, 1):
                        v.append(("ERR", "%s %s: exit %s: %s" % (
                            s.label, " ".join(opts), r.code, first_line(r.err))))
                        break
                    v += check_count("%s %s" % (s.label, " ".join(opts)),
                                     grep_results(r.out, s.mode), h, "results")
            return v, notes
        if s.kind == "files":
            for limit in (10, None):
                opts = ["--limit", str(limit)] if limit else []
                r = self.run(s, env, opts)
                n = sum(1 for l in bl.split_lines(r.out)
                        if l and not l.startswith(b"["))
                v += check_count("%s %s" % (s.label, " ".join(opts)), n,
                                 limit or DEFAULT_FILES_LIMIT, "paths")
            return v, notes
        for tokens in BUDGETS:
            opts = ["--budget-tokens", str(tokens)] if tokens else []
            s_page, label = s, "%s %s" % (s.label, " ".join(opts))
            for p in range(1, BUDGET_PAGES + 1):
                r = self.run(s_page, env, opts)
                if r.timed_out:
                    v.append(("ERR", "%s: timed out" % label))
                    break
                if r.code == 2 and (NO_PAGE_RE.search(r.err) or TOO_SMALL_RE.search(r.err)):
                    break
                if r.code not in (0, 1, 3):
                    v.append(("ERR", "%s: exit %s: %s" % (label, r.code, first_line(r.err))))
                    break
                if s.anchorless and not r.out.startswith(b"query: "):
                    # Passthrough: bounded by its cap (I1), not the budget.
                    if len(r.out) > PASSTHROUGH_CAP:
                        v.append(("BUDGET", "%s: passthrough %d bytes > cap %d"
                                  % (label, len(r.out), PASSTHROUGH_CAP)))
                    break
                v += check_budget(label, r.out, tokens or self.default_of(
                    s.head[0], "--budget-tokens", DEFAULT_BUDGET_TOKENS))
                n = tok_note(label, r.out)
                if n:
                    notes.append(n)
                # The next page: --page N, or the command `scout read`'s
                # last line gives (`--range A:B`, with the budget).
                if s.paged and r.code == 0 and (page_count(r.out) or 1) > p:
                    s_page, opts = s, ([] if not tokens else opts[:2]) + [
                        "--page", str(p + 1)]
                    label = "%s %s" % (s.label, " ".join(opts))
                    continue
                m = READ_NEXT_RE.search(r.out) if s.kind == "read" else None
                if not m:
                    break
                argv = shlex.split(m.group(1).decode(errors="replace"))[1:]
                s_page, opts = Subject("read", " ".join(argv), argv, []), []
                label = "read (next page) " + " ".join(argv)
        return v, notes

    def again(self, s):
        """AGAIN: in a session that has seen the search (page 1 at the
        default budget, page 2 at 300 tokens), pages 1..5 at 300 tokens
        hold the same files with and without --again."""
        env = self.fresh_env(session="again")
        small = ["--budget-tokens", str(AGAIN_BUDGET)]
        seed = [self.run(s, env), self.run(s, env, small + ["--page", "2"])]
        if seed[0].code not in (0, 1, 3):
            return [("ERR", "%s: exit %s: %s" % (s.label, seed[0].code,
                                                 first_line(seed[0].err)))], []
        plain, again = [], []
        for p in range(1, AGAIN_PAGES + 1):
            opts = small + (["--page", str(p)] if p > 1 else [])
            a = self.run(s, env, opts)
            b = self.run(s, env, opts + ["--again"])
            if a.code == 2 and b.code == 2:
                break
            plain.append(a.out)
            again.append(b.out)
            if (page_count(b.out) or 1) <= p and (page_count(a.out) or 1) <= p:
                break
        label = s.label + " --budget-tokens %d" % AGAIN_BUDGET
        notes = ["%s --page %d: the same files as a ranked page and, with "
                 "--again, as rg's plain lines" % (label, i + 1)
                 for i, (p, a) in enumerate(zip(plain, again))
                 if bool(page_count(p)) != bool(page_count(a))
                 and page_files(p) == page_files(a)]
        return check_again(label, plain, again), notes

    def repeat(self, s):
        """REPEAT: the same search REPEATS times in one fresh session."""
        env = self.fresh_env(session="repeat")
        runs = [self.run(s, env) for _ in range(REPEATS)]
        if any(r.timed_out or r.code not in (0, 1, 3) for r in runs):
            return [("ERR", "%s: a repeated run failed: %s" % (
                s.label, first_line(runs[-1].err)))], []
        return check_repeat(s.label, [r.out for r in runs]), []

    def check_all(self, subjects, checks, jobs):
        """[(subject, check name, violations, notes)] for every subject
        and every check that applies to it."""
        work = []
        for s in subjects:
            if "COLD" in checks:
                work.append((s, "COLD", self.cold))
            if "BUDGET" in checks:
                work.append((s, "BUDGET", self.budget))
            if "AGAIN" in checks and s.paged:
                work.append((s, "AGAIN", self.again))
            if "REPEAT" in checks and s.paged:
                work.append((s, "REPEAT", self.repeat))

        def one(item):
            s, name, fn = item
            try:
                v, notes = fn(s)
            except Exception as e:  # a checker bug must not hide the others
                v, notes = [("ERR", "%s %s: checker crashed: %r" % (name, s.label, e))], []
            return s, name, v, notes

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(one, work))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("repo")
    ap.add_argument("--scout")
    ap.add_argument("--queries", type=int, default=200,
                    help="derived queries (default 200), plus the anchorless")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=bl.DEFAULT_TIMEOUT)
    ap.add_argument("--scout-arg", action="append",
                    help="extra argument for scout search (repeatable)")
    ap.add_argument("--max-report", type=int, default=20,
                    help="violations printed per invariant (all go to --out)")
    ap.add_argument("--out", help="write every violation as JSON here")
    ap.add_argument("--memory-queries", type=int, default=30,
                    help="ranked queries re-run inside an agent session to "
                    "check session memory (default 30, 0 = none)")
    ap.add_argument("--variants", action="store_true",
                    help="also check every derived query under flag "
                    "combinations, --page 2, -l and scout call (#15)")
    ap.add_argument("--anchorless-json", action="store_true",
                    help="also run --json for anchorless patterns (slow on "
                    "big trees: scout ranks every line)")
    ap.add_argument("--checks", default=",".join(CHECKS),
                    help="comma-separated checks to run (default all: %s); "
                    "e.g. --checks COLD,BUDGET,AGAIN,REPEAT for the page "
                    "checks of #34 alone" % ",".join(CHECKS))
    ap.add_argument("--page-queries", type=int, default=12,
                    help="text searches the page checks (COLD, BUDGET, AGAIN, "
                    "REPEAT) run, spread over strata and kinds (default 12)")
    args = ap.parse_args()
    checks = [c.strip().upper() for c in args.checks.split(",") if c.strip()]
    unknown = [c for c in checks if c not in CHECKS]
    if unknown:
        ap.error("unknown check %s (choose from %s)" % (
            ", ".join(unknown), ", ".join(CHECKS)))
    repo = os.path.abspath(args.repo)
    t0 = time.perf_counter()

    def log(m):
        print("# " + m, file=sys.stderr, flush=True)

    queries = bl.derive_queries(repo, args.queries, args.seed, log=log,
                                exact=False, n_regex=len(bl.REGEX_POOL))
    # The slowest first, so two jobs finish together.
    queries = [bl.Query(p, "anchorless") for p in bl.ANCHORLESS] + queries
    state = tempfile.mkdtemp(prefix="scout-inv-")
    scout = bl.find_scout(args.scout)
    volume = Volume(scout)
    if args.variants:
        ext = commonest_ext(repo)
        base = [q for q in queries if q.kind != "anchorless"]
        queries += [v for q in base for v in variants(q, ext)]
        log("with variants: %d checks (commonest extension %s)" % (
            len(queries), ext))
    checker = Checker(repo, scout, bl.scout_env(state), args.timeout,
                      list(args.scout_arg or []))
    checker.anchorless_json = args.anchorless_json
    log("%d queries on %s with %s (setup %.1fs)" % (
        len(queries), repo, scout, time.perf_counter() - t0))

    if "CORE" not in checks:
        core_queries = []
    else:
        core_queries = queries
    done = [0]

    def one(q):
        try:
            res = (checker.light_check(q) if getattr(q, "light", None)
                   else checker.check(q))
        except Exception as e:  # a checker bug must not hide the others
            res = ([("ERR", "checker crashed: %r" % e)], [], {})
        done[0] += 1
        if done[0] % 25 == 0:
            log("%d/%d checked, %.0fs" % (done[0], len(queries),
                                          time.perf_counter() - t0))
        return res

    derived = [q for q in queries
               if q.kind != "anchorless" and not isinstance(q, Variant)]
    queries = core_queries
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(one, queries))

    # Session memory: the same search three times in one agent session.
    if "CORE" in checks:
        ranked_qs = [q for q, (_, _, facts) in zip(queries, results)
                     if facts.get("mode") == "ranked"
                     and not isinstance(q, Variant)][:args.memory_queries]
    else:
        ranked_qs = derived[:args.memory_queries]
    memory = (memory_pass(checker, ranked_qs, state, args.jobs)
              if "MEMORY" in checks else {"runs": 0, "bytes": [0, 0, 0],
                                          "violations": []})
    # The page checks of #34 over every command.
    page_checks = [c for c in checks if c in ("COLD", "BUDGET", "AGAIN", "REPEAT")]
    page_summary = None
    if page_checks:
        pages = Pages(checker, os.path.join(state, "pages"), log=log)
        lang = tree_lang(repo)
        subjects = pages.subjects(spread(derived, args.page_queries),
                                  args.page_queries, lang)
        log("page checks %s on %d subjects (language %s)" % (
            ",".join(page_checks), len(subjects), lang))
        done_pages = pages.check_all(subjects, page_checks, args.jobs)
        for s_, name, v, notes in done_pages:
            queries.append(bl.Query(s_.label, "page " + name.lower()))
            results.append((v, notes, {"mode": "page " + name.lower()}))
        page_summary = (len(subjects), pages.runs, lang, sorted(
            {s_.kind: None for s_, _, _, _ in done_pages}))
    for q, v in memory["violations"]:
        queries.append(q)
        results.append((v, [], {"mode": "memory"}))

    for argv, line in volume.panics:
        queries.append(bl.Query(" ".join(argv), "run"))
        results.append(([("PANIC", line)], [], {"mode": "run"}))
    for argv, code in volume.bad_exits:
        queries.append(bl.Query(" ".join(argv), "run"))
        results.append(([("EXIT", "exit %s" % code)], [], {"mode": "run"}))

    per = {k: 0 for k in INVARIANTS}
    shown = {k: 0 for k in INVARIANTS}
    all_v = []
    modes = {}
    note_count = 0
    for q, (v, notes, facts) in zip(queries, results):
        modes[facts.get("mode", "?")] = modes.get(facts.get("mode", "?"), 0) + 1
        for inv, msg in v:
            per[inv] += 1
            all_v.append({"query": q.label(), "kind": q.kind,
                          "invariant": inv, "message": msg})
            if shown[inv] < args.max_report:
                shown[inv] += 1
                print("%s  %-34s %s" % (inv, "[%s] %s" % (q.kind, q.label()),
                                        msg))
        for n in notes[:3]:
            note_count += 1
            if note_count <= 10:
                print("note  [%s] %s  %s" % (q.kind, q.label(), n))
    print()
    print("checked %d queries (%s) on %s in %.0fs with %s" % (
        len(queries), ", ".join("%s %d" % kv for kv in sorted(modes.items())),
        repo, time.perf_counter() - t0, scout))
    if memory["runs"]:
        b1, b2, b3 = memory["bytes"]
        print("session memory: %d ranked queries searched 3 times in one "
              "session: %d, %d, %d bytes (second/first %.2f, third/second "
              "%.2f)" % (memory["runs"], b1, b2, b3, b2 / max(b1, 1),
                         b3 / max(b2, 1)))
    if page_summary:
        print("page checks (%s): %d subjects (%s), %d scout runs, language %s"
              % (",".join(page_checks), page_summary[0],
                 ", ".join(page_summary[3]), page_summary[1], page_summary[2]))
    print("scout invocations: %d (panics %d, exit codes outside 0-3 %d)" % (
        volume.runs, len(volume.panics), len(volume.bad_exits)))
    print("violations: " + "  ".join("%s=%d" % (k, per[k]) for k in INVARIANTS))
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({"repo": repo, "queries": [q.to_json() for q in queries],
                       "violations": all_v, "counts": per,
                       "memory": {"runs": memory["runs"],
                                  "bytes": memory["bytes"]},
                       "invocations": volume.runs}, fh, indent=1)
    import shutil
    shutil.rmtree(state, ignore_errors=True)
    sys.exit(1 if any(per.values()) else 0)


if __name__ == "__main__":
    main()
