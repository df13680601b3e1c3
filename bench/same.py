#!/usr/bin/env python3
"""Checks that two scout binaries print the same pages on REPO.

    python3 bench/same.py REPO --before OLD --after NEW [--queries 100]
        [--seed 1] [--jobs 2] [--timeout 60] [--max-report 10]

For a refactor that must not change behaviour: every derived query
(identifiers, regexes with an anchor, case-insensitive literals, and the
anchorless patterns) is run by both binaries in several forms (text, --json,
-l, --page 2, --lexical, -w, --budget-tokens 300, --explain; which forms
depends on the query), cwd = REPO and path `.`, twice per binary: with an
empty definitions cache, then with the cache the first run left.

The other commands run on the first --others identifier queries (20 by
default) that define their name in a file (the file `scout search --json`
of the reference binary shows first with a definition): `read --symbol`,
`search --callers-of` and `--impact` (text and --json), `edit --dry-run`
(a text edit of the definition's file), `smart --words-only` (text and
--json), `grep` (its three output modes), `files`, and `call` with a
search request. Each
outcome (exit code, stdout, stderr) must be byte-identical to the other
binary's once the header's elapsed milliseconds (`NNms`,
`"elapsed_ms":N`) are masked. Each binary gets a private cache and state
directory per query and form, and no agent session.

Prints each difference (at most --max-report, with the first differing
line) and a summary; exit status 1 when anything differs.
"""

import argparse
import difflib
import os
import re
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402

MS_RE = re.compile(rb"\b\d+ms\b")
JSON_MS_RE = re.compile(rb'"elapsed_ms":\s*\d+')


def mask(out):
    return JSON_MS_RE.sub(b'"elapsed_ms":N', MS_RE.sub(b"Nms", out))


def forms(q):
    """The scout argument lists a query is run with."""
    base = q.scout_flags()
    if q.kind == "anchorless":
        return [base, base + ["--passthrough-cap", "4096"]]
    out = [base, base + ["--json"], base + ["-l"], base + ["--page", "2"]]
    if q.kind == "ident":
        out += [base + ["--lexical"], base + ["-w"],
                base + ["--budget-tokens", "300"], base + ["--explain"]]
    return out


def defining_file(binary, repo, name, timeout):
    """The first file `scout search NAME --json` shows with a definition
    of NAME, or None."""
    import json
    with tempfile.TemporaryDirectory(prefix="scout-same-") as state:
        r = bl.run([binary, "search", name, "--json", "."], repo,
                   env=bl.scout_env(state), timeout=timeout)
    try:
        doc = json.loads(r.out.split(b"\n", 1)[0])
    except ValueError:
        return None
    for result in doc.get("results", []):
        for line in result.get("lines", []):
            symbol = line.get("symbol") or {}
            if line.get("def") and symbol.get("name") == name:
                return result["path"]
    return None


def other_commands(q, path):
    """The argument lists of the other commands for identifier q defined
    in path (each a full argv after the binary)."""
    import json
    name, spec = q.text, "%s#%s" % (path, q.text)
    request = json.dumps({"mode": "search", "query": name, "text": True})
    return [
        ["read", path, "--symbol", name],
        ["search", "--callers-of", spec, "-e", "", "."],
        ["search", "--callers-of", spec, "-e", "", "--json", "."],
        ["search", "--impact", spec, "--depth", "2", "-e", "", "."],
        ["edit", "--dry-run", "--old", name, "--new", name + "_renamed",
         "--all", path],
        ["edit", "--dry-run", "--json", "--old", name, "--new",
         name + "_renamed", "--all", path],
        ["smart", "--words-only", "where is %s defined and used" % name, "."],
        ["smart", "--words-only", "--json", "how does %s work" % name, "."],
        ["grep", name, "."],
        ["grep", name, "--output-mode", "content", "-n", "."],
        ["grep", name, "--output-mode", "count", "."],
        ["files", "*%s*" % os.path.splitext(os.path.basename(path))[0], "."],
        ["call", request],
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("repo")
    ap.add_argument("--before", required=True, help="the reference scout")
    ap.add_argument("--after", required=True, help="the scout under test")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=bl.DEFAULT_TIMEOUT)
    ap.add_argument("--max-report", type=int, default=10)
    ap.add_argument("--others", type=int, default=20,
                    help="identifier queries also run through the other "
                    "commands (0: search only)")
    ap.add_argument("--env", action="append", default=[],
                    help="NAME=VALUE set for the --after runs only "
                    "(e.g. SCOUT_RG_OUTPUT=json; repeatable)")
    args = ap.parse_args()
    repo = os.path.abspath(args.repo)
    args.before, args.after = map(os.path.abspath, (args.before, args.after))
    t0 = time.perf_counter()

    def log(m):
        print("# " + m, file=sys.stderr, flush=True)

    queries = bl.derive_queries(repo, args.queries, args.seed, log=log,
                                exact=False, n_regex=len(bl.REGEX_POOL))
    queries = [bl.Query(p, "anchorless") for p in bl.ANCHORLESS] + queries
    extra = dict(kv.split("=", 1) for kv in args.env)
    runs = [(q, ["search"] + f + [q.text, "."]) for q in queries for f in forms(q)]
    others = 0
    for q in (q for q in queries if q.kind == "ident"):
        if others >= args.others:
            break
        path = defining_file(args.before, repo, q.text, args.timeout)
        if path:
            others += 1
            runs += [(q, argv) for argv in other_commands(q, path)]
    log("%d of them also through the other commands" % others)
    log("%d queries, %d runs per binary on %s" % (len(queries), len(runs), repo))

    def one(job):
        q, argv = job
        outcomes = []
        for binary, more in ((args.before, {}), (args.after, extra)):
            with tempfile.TemporaryDirectory(prefix="scout-same-") as state:
                env = bl.scout_env(state)
                env.update(more)
                runs = [bl.run([binary] + argv,
                               repo, env=env, timeout=args.timeout)
                        for _cold_then_warm in range(2)]
            outcomes.append([(r.code, mask(r.out), mask(r.err), r.timed_out)
                             for r in runs])
        return q, argv, outcomes

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(one, runs))

    diffs, timeouts = [], 0
    for q, argv, (before, after) in results:
        for cache, a, b in zip(("cold", "warm"), before, after):
            if a[3] or b[3]:
                timeouts += 1
            elif a[:3] != b[:3]:
                diffs.append((q, argv, cache, a, b))
    for q, argv, cache, a, b in diffs[:args.max_report]:
        print("DIFF scout %s (%s cache)" % (" ".join(map(repr, argv)), cache))
        if a[0] != b[0]:
            print("  exit %s -> %s" % (a[0], b[0]))
        for name, x, y in (("stdout", a[1], b[1]), ("stderr", a[2], b[2])):
            if x != y:
                lines = difflib.unified_diff(
                    x.decode("utf-8", "replace").splitlines(),
                    y.decode("utf-8", "replace").splitlines(),
                    "before", "after", n=0, lineterm="")
                print("  %s:\n    %s" % (name, "\n    ".join(list(lines)[:8])))
    print("same: %d queries, %d runs (x2: cold and warm cache), %d differ, "
          "%d timed out (%.0fs) on %s" % (
        len(queries), len(results), len(diffs), timeouts,
        time.perf_counter() - t0, repo))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
