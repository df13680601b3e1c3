#!/usr/bin/env python3
"""Cold versus warm definitions cache, side by side with rg.

    python3 bench/cache.py REPO QUERY [--runs 9] [--scout PATH]

Runs, interleaved per round: `rg -n -F -e QUERY .`, `scout search QUERY .`
with a warm definitions cache, with an empty one (a new cache directory
every round: every shown file is parsed), and with `--lexical` (no parsing
at all). Prints the medians, cold minus warm, warm / rg, and which files
and languages the page showed (the files that were parsed when cold).
"""

import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("repo")
    ap.add_argument("query")
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--scout")
    args = ap.parse_args()
    repo = os.path.abspath(args.repo)
    scout = bl.find_scout(args.scout)
    work = tempfile.mkdtemp(prefix="scout-cache-bench-")
    warm_env = bl.scout_env(os.path.join(work, "warm"))
    argv = [scout, "search", args.query, "."]
    first = bl.run(argv, repo, env=warm_env)  # fills the warm cache
    page = bl.parse_scout(first.out, bl.repo_exists(repo))
    exts = sorted({os.path.splitext(f[0])[1].decode(errors="replace") for f in page.files})
    times = {"rg -n": [], "scout warm": [], "scout cold": [], "scout --lexical": []}
    for i in range(args.runs):
        cold_env = bl.scout_env(os.path.join(work, "cold-%d" % i))
        for name, cmd, env in (
                ("rg -n", ["rg", "-n", "-F", "-e", args.query, "."], None),
                ("scout warm", argv, warm_env),
                ("scout cold", argv, cold_env),
                ("scout --lexical", [scout, "search", "--lexical", args.query, "."], warm_env)):
            r = bl.run(cmd, repo, env=env)
            times[name].append(r.secs * 1000)
    shutil.rmtree(work, ignore_errors=True)
    med = {k: bl.median(v) for k, v in times.items()}
    print("repo: %s\nquery: %s\npage: %d files shown (%s), %d bytes\nruns: %d, interleaved\n" % (
        repo, args.query, len(page.files), " ".join(exts), len(first.out), args.runs))
    print("| run | median ms | p90 ms | vs rg -n |")
    print("|---|---|---|---|")
    for k, v in times.items():
        print("| %s | %.1f | %.1f | %.2f |" % (k, med[k], bl.percentile(v, 90), med[k] / med["rg -n"]))
    print("\ncold - warm: %+.1f ms (median of each)" % (med["scout cold"] - med["scout warm"]))


if __name__ == "__main__":
    main()
