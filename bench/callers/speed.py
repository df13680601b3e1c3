#!/usr/bin/env python3
"""Speed of `--callers-of` and `--impact` beside `scout search NAME` (#23).

    python3 bench/callers/speed.py CORPUS --scout target/release/scout [--repeat 5]

For every target select.py chose for CORPUS (read from
/tmp/callers-oracle/NAME.targets.json), runs, interleaved and from the
corpus root: `scout search NAME`, `scout search --callers-of SPEC` and
`scout search --impact SPEC --depth 2`, each --again with a budget of
1,500 tokens, all sharing one cache directory (warm). Prints the median
wall time of each over the repeats, per target; the median and largest
ratio callers / search over targets (#23's bound: at most 2); the p50 /
p90 of --impact; and a cold run of --callers-of and of --impact per
target, each with an empty cache directory of its own (facts and
definitions parsed anew; the OS's page cache is not dropped); and the
peak memory of one --callers-of per target beside the files its graph read.
"""

import os
import sys

# This folder's select.py would shadow the standard library's `select`,
# which subprocess imports.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != HERE]

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile
import time


def timed(cmd, cwd, env):
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def peak(cmd, cwd, env):
    """(peak resident KB, files the graph read) of one run, by GNU time."""
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, cwd=cwd, env=env,
                         capture_output=True, text=True)
    kb = int(out.stderr.strip().splitlines()[-1])
    try:
        read = json.loads(out.stdout)["scope"]["files_read"]
    except (ValueError, KeyError):
        read = 0
    return kb, read


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--scout", required=True)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--oracle-dir", default="/tmp/callers-oracle")
    args = ap.parse_args()
    corpus = os.path.abspath(args.corpus)
    name = os.path.basename(corpus.rstrip("/"))
    targets = json.load(open(os.path.join(args.oracle_dir, name + ".targets.json")))
    scout = os.path.abspath(args.scout)
    env = dict(os.environ, XDG_CACHE_HOME=tempfile.mkdtemp())
    env.pop("SCOUT_SESSION_ID", None)
    rows, ratios, impacts, firsts, cold_impacts, rss = [], [], [], [], [], []
    for t in targets:
        cmds = {
            "search": [scout, "search", t["name"], "--again"],
            "callers": [scout, "search", "--callers-of", t["spec"], "--again"],
            "impact": [scout, "search", "--impact", t["spec"], "--again"],
        }
        # Cold: an empty cache directory of its own (no facts, no
        # definitions cached); the OS's page cache stays warm.
        cold = dict(env, XDG_CACHE_HOME=tempfile.mkdtemp())
        firsts.append(timed(cmds["callers"], corpus, cold))
        rss.append(peak(cmds["callers"] + ["--json"], corpus, env))
        cold = dict(env, XDG_CACHE_HOME=tempfile.mkdtemp())
        cold_impacts.append(timed(cmds["impact"], corpus, cold))
        times = {k: [] for k in cmds}
        for _ in range(args.repeat):
            for k, cmd in cmds.items():
                times[k].append(timed(cmd, corpus, env))
        med = {k: statistics.median(v) for k, v in times.items()}
        rows.append((t["spec"], med))
        ratios.append(med["callers"] / med["search"])
        impacts.append(med["impact"])
    print(f"corpus: {name}, {len(targets)} targets, {args.repeat} repeats, scout {scout}")
    print("| target | search ms | callers-of ms | impact ms |")
    print("|---|---:|---:|---:|")
    for spec, med in rows:
        print(f"| {spec} | {med['search']:.0f} | {med['callers']:.0f} | {med['impact']:.0f} |")
    q = statistics.quantiles
    print(f"\ncallers-of / search: median x{statistics.median(ratios):.2f}, max x{max(ratios):.2f}")
    print(f"callers-of cold (empty cache): p50 {statistics.median(firsts):.0f} ms, max {max(firsts):.0f} ms")
    print(f"impact --depth 2: p50 {statistics.median(impacts):.0f} ms, "
          f"p90 {q(impacts, n=10)[-1]:.0f} ms, max {max(impacts):.0f} ms")
    print(f"impact --depth 2 cold (empty cache): p50 {statistics.median(cold_impacts):.0f} ms, "
          f"max {max(cold_impacts):.0f} ms")
    kb, read = max(rss)
    print(f"callers-of peak memory: p50 {statistics.median(k for k, _ in rss) / 1024:.1f} MB, "
          f"max {kb / 1024:.1f} MB (that target's graph read {read} files; "
          f"most files read by one target: {max(r for _, r in rss)})")


if __name__ == "__main__":
    sys.exit(main())
