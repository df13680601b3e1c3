#!/usr/bin/env python3
"""Scores `scout smart` on the hand-written questions of questions.jsonl,
next to two baselines over the same words: the old multi-word fallback of
`scout search` (a binary from before `scout smart`) and `rg -i`.

    python3 bench/smart/score.py --scout target/release/scout \
        --base /tmp/scout-smart-base [--split tuning|held-out|all] [--repo R]

Metrics, per split (tuning and held-out are always reported apart):
MRR@10, hit@1 and hit@5.

- file level (all three tools): a ranked list of files; the answer is the
  first file that holds a target.
- definition level (smart only): a ranked list of hits; the answer is the
  first hit in a target's file whose line is within 3 lines of the target's
  definition line, or whose enclosing definition contains that line.

`rg -i` ranks files by matching lines, most first (ties by path): the
plainest ranking rg's own counts give. The old fallback runs as
`scout search QUESTION -l --json --budget-tokens 0` (its any-word fallback
fires because no line holds the whole question).

`--within` also splits the definition-level misses in two: for each
question, smart's whole ranking (`--max-results 400`) is read, and the
target's rank among the hits of its own file is reported: a target first
within its file but not first overall lost on the choice of file; one
ranked lower within its file lost on the choice of definition.

`--cold` runs each question of smart with a cache of its own, made empty
for it and removed after (no vectors, definitions or listing from an
earlier question): a first question on each tree, whose meaning search
embeds everything it compares. `--smart-arg` passes one more argument to
every `scout smart` (repeatable), e.g. `--smart-arg --meaning-units=128`.

`--questions bench/smart/questions-fresh.jsonl` scores the fresh set
(split `fresh`: written after tuning, by someone who had not seen the
ranking, and never tuned on).

Standard library only. Corpus roots are given in README.md (a repo not
listed here is looked for at /work/corpora/REPO); --root R=DIR overrides one.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOTS = {
    "ripgrep": "/work/corpora/ripgrep",
    "redis": "/work/corpora/redis",
    "etcd": "/work/corpora/etcd",
    "ts": "/work/corpora/ts",
    "cpython-lib": "/tmp/corpora/cpython-lib",
}


def env():
    e = dict(os.environ)
    for k in ("SCOUT_SESSION_ID", "CLAUDE_CODE_SESSION_ID", "CODEX_THREAD_ID",
              "SCOUT_SMART_AGENT"):
        e.pop(k, None)
    return e


def run(argv, cwd, cache=None):
    e = env()
    if cache:
        e["XDG_CACHE_HOME"] = cache
    start = time.perf_counter()
    p = subprocess.run(argv, cwd=cwd, env=e, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p, time.perf_counter() - start


def words(question):
    return [w for w in re.split(r"\s+", question.strip()) if w]


def smart(binary, q, cwd, extra=(), cold=False):
    """smart's hits, its wall time, and what its meaning search compared."""
    argv = [binary, "smart", q, "--json", "--max-results", "10", *extra]
    if cold:
        with tempfile.TemporaryDirectory(prefix="score-cold-") as cache:
            p, secs = run(argv, cwd, cache)
    else:
        p, secs = run(argv, cwd)
    if p.returncode not in (0, 1):
        raise SystemExit(f"scout smart failed ({p.returncode}) on {q!r}: {p.stderr.decode()}")
    doc = json.loads(p.stdout) if p.stdout.strip() else {"hits": []}
    return doc["hits"], secs, doc.get("meaning") or {}


def within_file(binary, q, cwd):
    """The target's rank among the hits of its own file in smart's whole
    ranking (best over the targets), or None when no hit of a target's
    file is the target."""
    p, _ = run([binary, "smart", q["question"], "--json", "--max-results", "400",
                "--budget-tokens", "0"], cwd)
    hits = json.loads(p.stdout)["hits"] if p.stdout.strip() else []
    hit, best = def_hit(q), None
    for path in {t["path"] for t in q["targets"]}:
        ranks = [i + 1 for i, h in enumerate(h for h in hits if h["path"] == path) if hit(h)]
        if ranks and (best is None or ranks[0] < best):
            best = ranks[0]
    return best


def fallback(binary, q, cwd):
    p, secs = run([binary, "search", q, "-l", "--json", "--budget-tokens", "0"], cwd)
    if not p.stdout.strip():
        return [], secs
    doc = json.loads(p.stdout)
    return [r["path"] for r in doc["results"]], secs


def rg_i(q, cwd):
    argv = ["rg", "-i", "-c", "-F"]
    for w in words(q):
        argv += ["-e", w]
    p, secs = run(argv, cwd)
    counts = []
    for line in p.stdout.decode(errors="replace").splitlines():
        path, _, n = line.rpartition(":")
        counts.append((-int(n), path))
    return [path for _, path in sorted(counts)], secs


def first_rank(items, hit):
    for i, item in enumerate(items[:10]):
        if hit(item):
            return i + 1
    return None


def file_hit(q):
    paths = {t["path"] for t in q["targets"]}
    return lambda path: path in paths


def def_hit(q):
    def hit(h):
        for t in q["targets"]:
            if h["path"] != t["path"]:
                continue
            if abs(h["line"] - t["line"]) <= 3:
                return True
            d = h.get("def")
            if d and d["start"] <= t["line"] <= d["end"] and d["end"] - d["start"] < 400:
                return True
        return False
    return hit


def dedup(seq):
    seen, out = set(), []
    for x in seq:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


def metrics(ranks):
    n = len(ranks) or 1
    return {
        "mrr10": sum(1 / r for r in ranks if r) / n,
        "hit1": sum(1 for r in ranks if r == 1) / n,
        "hit5": sum(1 for r in ranks if r and r <= 5) / n,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scout", default="target/release/scout")
    ap.add_argument("--base", help="scout binary from before `scout smart` (old fallback)")
    ap.add_argument("--questions", default=os.path.join(HERE, "questions.jsonl"),
                    help="questions file (questions-fresh.jsonl: the fresh set)")
    ap.add_argument("--split", default="all", choices=["all", "tuning", "held-out", "fresh"])
    ap.add_argument("--repo", action="append")
    ap.add_argument("--root", action="append", default=[], help="REPO=DIR")
    ap.add_argument("--show", action="store_true", help="print each question's ranks (tuning only)")
    ap.add_argument("--json", help="write per-question results here")
    ap.add_argument("--within", action="store_true",
                    help="also rank each target among its own file's hits")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run scout smart N times per question; its time is the median")
    ap.add_argument("--cold", action="store_true",
                    help="each scout smart with an empty cache of its own")
    ap.add_argument("--smart-arg", action="append", default=[],
                    help="one more argument for every scout smart (repeatable)")
    args = ap.parse_args()
    for r in args.root:
        k, _, v = r.partition("=")
        ROOTS[k] = v
    scout = os.path.abspath(args.scout)
    base = args.base and os.path.abspath(args.base)

    questions = [json.loads(l) for l in open(args.questions)]
    questions = [q for q in questions
                 if (args.split == "all" or q["split"] == args.split)
                 and (not args.repo or q["repo"] in args.repo)]
    rows = []
    for q in questions:
        cwd = ROOTS.get(q["repo"], os.path.join("/work/corpora", q["repo"]))
        ask = lambda: smart(scout, q["question"], cwd, args.smart_arg, args.cold)
        hits, secs, meaning = ask()
        if args.repeat > 1:
            secs = statistics.median([secs] + [ask()[1] for _ in range(args.repeat - 1)])
        row = {"id": q["id"], "split": q["split"], "smart_secs": secs,
               "embedded": meaning.get("embedded", 0), "covered": meaning.get("covered", 0),
               "smart_def": first_rank(hits, def_hit(q)),
               "smart_file": first_rank(dedup([h["path"] for h in hits]), file_hit(q)),
               "smart_top": [f'{h["path"]}:{h["line"]}' for h in hits[:3]]}
        if args.within:
            row["within_file"] = within_file(scout, q, cwd)
        files, row["rg_secs"] = rg_i(q["question"], cwd)
        row["rg_file"] = first_rank(files, file_hit(q))
        if base:
            files, row["fallback_secs"] = fallback(base, q["question"], cwd)
            row["fallback_file"] = first_rank(files, file_hit(q))
        rows.append(row)
        if args.show and q["split"] == "tuning":
            print(f'{q["id"]:16} def={row["smart_def"]} file={row["smart_file"]} '
                  f'{q["question"][:60]!r} -> {row["smart_top"][:2]}', file=sys.stderr)

    columns = [("smart, definition", "smart_def"), ("smart, file", "smart_file")]
    if base:
        columns.append(("old fallback, file", "fallback_file"))
    columns.append(("rg -i, file", "rg_file"))
    print("| split | n | tool, level | MRR@10 | hit@1 | hit@5 |")
    print("|---|---|---|---|---|---|")
    for split in ("tuning", "held-out", "fresh"):
        part = [r for r in rows if r["split"] == split]
        if not part:
            continue
        for label, key in columns:
            m = metrics([r[key] for r in part])
            print(f'| {split} | {len(part)} | {label} | {m["mrr10"]:.2f} | {m["hit1"]:.2f} | {m["hit5"]:.2f} |')
    if args.within:
        print("\n| split | n | target first in its file | lower in its file | not among its file's hits |")
        print("|---|---|---|---|---|")
        for split in ("tuning", "held-out", "fresh"):
            part = [r["within_file"] for r in rows if r["split"] == split]
            if part:
                first = sum(1 for w in part if w == 1)
                none = sum(1 for w in part if w is None)
                print(f"| {split} | {len(part)} | {first} | {len(part) - first - none} | {none} |")
    secs = sorted(r["smart_secs"] for r in rows)
    if secs:
        p90 = secs[min(len(secs) - 1, int(0.9 * len(secs)))]
        print(f"\nscout smart wall time over {len(secs)} questions "
              f"(median of {args.repeat} run(s) each): "
              f"p50 {statistics.median(secs) * 1000:.0f} ms, p90 {p90 * 1000:.0f} ms; "
              f"definitions embedded p50 {statistics.median(r['embedded'] for r in rows):.0f}")
        for repo in sorted({q["repo"] for q in questions}):
            part = sorted(r["smart_secs"] for r, q in zip(rows, questions) if q["repo"] == repo)
            p90 = part[min(len(part) - 1, int(0.9 * len(part)))]
            print(f"  {repo}: p50 {statistics.median(part) * 1000:.0f} ms, p90 {p90 * 1000:.0f} ms")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
