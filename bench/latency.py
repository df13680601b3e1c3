#!/usr/bin/env python3
"""scout's own cost over the rg it wraps, paired and interleaved.

    python3 bench/latency.py REPO [--scout NAME=PATH]... [--queries 40]
        [--seed 1] [--runs 11] [--cold] [--out FILE] [--query Q]...

Identifier queries derived from REPO (as bench.py derives them; regexes and
-i left out), or the queries given with --query (qualified names, say). Per query and round, in one interleaved order: `rg -n
--no-heading -F -e Q .`, then each scout as `scout search Q .` (a binary
given as NAME=PATH, default `scout=` the one bench.py would use), cwd =
REPO, stdout and stderr read through pipes as an agent reads them. Each
scout has its own cache and state directory and no session; with the cache
warmed by one untimed run per query, unless --cold (a new empty cache per
run). A query's time is the median of its rounds.

Reports per tool: p50 and p90 over queries, the median over queries of
scout/rg, and scout's added time (scout - rg, per query) at p50 and p90.
Run it on a quiet machine: every other process's work lands in both
columns, but not evenly.
"""

import argparse
import atexit
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402


def timed(argv, cwd, env):
    """Wall seconds of one run, stdout and stderr drained through pipes."""
    start = time.perf_counter()
    p = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    secs = time.perf_counter() - start
    if p.returncode not in (0, 1):
        raise SystemExit("%s exited %d: %s" % (" ".join(argv), p.returncode,
                                               p.stderr[:300]))
    return secs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("repo")
    ap.add_argument("--scout", action="append", default=[],
                    help="NAME=PATH of a scout binary (repeatable)")
    ap.add_argument("--queries", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--cold", action="store_true",
                    help="an empty definitions cache for every run")
    ap.add_argument("--out", help="write per-query medians as JSON here")
    ap.add_argument("--query", action="append", default=[],
                    help="measure this query instead of derived ones (repeatable)")
    args = ap.parse_args()
    repo = os.path.abspath(args.repo)

    def log(m):
        print("# " + m, file=sys.stderr, flush=True)

    scouts = []
    for spec in args.scout or ["scout=" + bl.find_scout(None)]:
        name, _, path = spec.partition("=")
        if not path:
            raise SystemExit("--scout wants NAME=PATH, got %r" % spec)
        scouts.append((name, os.path.abspath(path)))
    if args.query:
        queries = [bl.Query(text, "given", stratum="given") for text in args.query]
    else:
        queries = [q for q in bl.derive_queries(repo, args.queries, args.seed,
                                                log=log, n_regex=0, n_icase=0)
                   if q.kind == "ident"]
    state = tempfile.mkdtemp(prefix="scout-latency-")
    atexit.register(shutil.rmtree, state, True)
    envs = {name: bl.scout_env(os.path.join(state, name)) for name, _ in scouts}

    def scout_argv(path, q):
        return [path, "search", q.text, "."]

    def env_for(name, i, r):
        if not args.cold:
            return envs[name]
        return bl.scout_env(os.path.join(state, "%s-%d-%d" % (name, i, r)))

    if not args.cold:
        for q in queries:
            for name, path in scouts:
                timed(scout_argv(path, q), repo, envs[name])
    tools = ["rg"] + [name for name, _ in scouts]
    per_query = []
    t0 = time.perf_counter()
    for i, q in enumerate(queries):
        secs = {t: [] for t in tools}
        for r in range(args.runs):
            secs["rg"].append(timed(["rg", "-n", "--no-heading", "-F", "-e",
                                     q.text, "."], repo, os.environ))
            for name, path in scouts:
                secs[name].append(timed(scout_argv(path, q), repo,
                                        env_for(name, i, r)))
        per_query.append({"query": q.text, "stratum": q.stratum,
                          **{t: bl.median(v) for t, v in secs.items()}})
    elapsed = time.perf_counter() - t0

    # The rg measured: the first on PATH, which each scout runs too
    # (unless SCOUT_RG names another), named by path and version (#26).
    rg_version = "%s at %s" % (
        subprocess.run(["rg", "--version"], capture_output=True,
                       text=True).stdout.split("\n")[0],
        shutil.which("rg"))
    print("## latency: %s" % repo)
    print()
    print("%d %s, %d interleaved rounds, %s cache; "
          "%s; %d cores; %.0fs" % (len(queries),
                                  "queries given" if args.query else
                                  "identifier queries (seed %d)" % args.seed,
                                  args.runs,
                                  "cold" if args.cold else "warm", rg_version,
                                  os.cpu_count(), elapsed))
    print()
    print("| tool | p50 ms | p90 ms | median ratio to rg | added ms p50 "
          "| added ms p90 |")
    print("|---|--:|--:|--:|--:|--:|")
    rg = [row["rg"] for row in per_query]
    print("| rg | %.1f | %.1f | 1.00 | - | - |" % (
        bl.percentile(rg, 50) * 1000, bl.percentile(rg, 90) * 1000))
    summary = {}
    for name, _ in scouts:
        xs = [row[name] for row in per_query]
        ratios = [row[name] / row["rg"] for row in per_query]
        added = [row[name] - row["rg"] for row in per_query]
        summary[name] = {
            "p50_ms": bl.percentile(xs, 50) * 1000,
            "p90_ms": bl.percentile(xs, 90) * 1000,
            "median_ratio": bl.median(ratios),
            "added_ms_p50": bl.percentile(added, 50) * 1000,
            "added_ms_p90": bl.percentile(added, 90) * 1000,
        }
        s = summary[name]
        print("| %s | %.1f | %.1f | %.3f | %.2f | %.2f |" % (
            name, s["p50_ms"], s["p90_ms"], s["median_ratio"],
            s["added_ms_p50"], s["added_ms_p90"]))
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({"repo": repo, "rg": rg_version, "runs": args.runs,
                       "cold": args.cold, "machine": platform.platform(),
                       "cores": os.cpu_count(), "summary": summary,
                       "queries": per_query}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
