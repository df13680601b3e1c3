#!/usr/bin/env python3
"""Scores scout on the development set of questions in words
(bench/smart/dev/): file-level NDCG@10 and MRR@10 for `scout search`,
`scout smart` and the routed command, per shape and split.

    python3 bench/smart/dev.py --scout target/release/scout \
        [--corpora /work/corpora/dev] [--split tuning|held-out|all] \
        [--repo R]... [--mode search|smart|routed]... [--json OUT] [--show]
    python3 bench/smart/dev.py --fetch [--corpora DIR]   # the trees, once

Each question is asked as it is written; a symbol question is also asked
as its bare name (`name` in the file: the identifier as the question
spells it), which is what an agent that knows the name types. Each mode
runs the command an agent would run, with its defaults, and reads the
files it shows in the order it shows them (a file counts once, at its
first hit):

- search: `scout search QUERY --json`, page 1's files;
- smart:  `scout smart QUERY --json`, the files of its hits;
- routed: a query of one word goes to search, any other to smart (the
  routing of the public figures in the meaning issue).

Metrics, binary relevance over the question's target files:
NDCG@10 = DCG of the first 10 files / the ideal DCG (all targets first);
MRR@10 = 1 / the rank of the first target file among the first 10, else 0.
hit@5 is the share of queries with a target file among the first 5.

The split `held-out` (a third of each repository's questions, one shape
in turn per group of three) is scored and reported, never read one by one
while tuning: `--show` refuses it.

Corpora: each repository at the commit of dev/repos.json (and of
dev/copies-repos.json, for the older-copies set: `--questions
bench/smart/dev/copies.jsonl`), extracted as `git archive` into
CORPORA/REPO; `--fetch` makes the missing ones with git (a network is
needed once). Standard library only.
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from score import env as clean_env  # noqa: E402  (no session, no agent)

DEV = os.path.join(HERE, "dev")
SHAPES = ("symbol", "name", "behaviour", "architecture")
MODES = ("search", "smart", "routed")


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def files_of(scout, mode, query, cwd, env, extra=()):
    """The files one command shows for `query`, in order, and its seconds."""
    argv = [scout, mode, query, "--json", *extra]
    start = time.perf_counter()
    p = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    secs = time.perf_counter() - start
    if p.returncode == 2 and p.stderr.startswith(b"scout: "):
        # A refusal of this query (scout's own message, exit 2): no
        # answer, counted as such and reported.
        return None, secs
    if p.returncode not in (0, 1):
        sys.exit("`%s` failed (%d) in %s: %s" % (
            " ".join(argv), p.returncode, cwd, p.stderr.decode(errors="replace")))
    if not p.stdout.strip():
        return [], secs
    doc = json.loads(p.stdout)
    # search's page lists `results`, after the `definitions` a qualified
    # name names (when no match holds them); smart's, and search's answer
    # to a question in words (`kind` = `question`), list `hits`.
    if "results" in doc:
        items = doc.get("definitions", []) + doc["results"]
    else:
        items = doc.get("hits")
    seen, order = set(), []
    for item in items or []:
        path = item["path"]
        if path not in seen:
            seen.add(path)
            order.append(path)
    return order, secs


def fetch(corpora, repos):
    """Extracts each repository of `repos` missing under `corpora` at its
    pinned commit (a shallow fetch of that commit, then `git archive`)."""
    for r in repos:
        into = os.path.join(corpora, r["repo"])
        if os.path.isdir(into):
            continue
        with tempfile.TemporaryDirectory(prefix="dev-fetch-") as git:
            url = "https://github.com/%s" % r["github"]
            print("fetching %s at %s" % (url, r["commit"][:12]), file=sys.stderr)
            subprocess.run(["git", "init", "-q", git], check=True)
            subprocess.run(["git", "-C", git, "fetch", "-q", "--depth", "1", url,
                            r["commit"]], check=True)
            os.makedirs(into + ".part", exist_ok=True)
            archive = subprocess.Popen(["git", "-C", git, "archive", "FETCH_HEAD"],
                                       stdout=subprocess.PIPE)
            subprocess.run(["tar", "-x", "-C", into + ".part"], stdin=archive.stdout,
                           check=True)
            if archive.wait() != 0:
                sys.exit("git archive failed for %s" % r["repo"])
            os.rename(into + ".part", into)


def ndcg10(files, targets):
    dcg = sum(1 / math.log2(i + 2) for i, f in enumerate(files[:10]) if f in targets)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(targets), 10)))
    return dcg / ideal if ideal else 0.0


def rank10(files, targets):
    for i, f in enumerate(files[:10]):
        if f in targets:
            return i + 1
    return None


def queries(questions):
    """(question, shape, query text) for every query of the set."""
    for q in questions:
        yield q, q["shape"], q["question"]
        if q["shape"] == "symbol" and q.get("name"):
            yield q, "name", q["name"]


def summarize(rows):
    n = len(rows)
    if not n:
        return None
    return {
        "n": n,
        "ndcg10": sum(r["ndcg10"] for r in rows) / n,
        "mrr10": sum(1 / r["rank"] for r in rows if r["rank"]) / n,
        "hit5": sum(1 for r in rows if r["rank"] and r["rank"] <= 5) / n,
        "files10": statistics.mean(min(len(r["files"]), 10) for r in rows),
        "p50_ms": statistics.median(r["secs"] for r in rows) * 1000,
        "refused": sum(r["refused"] for r in rows),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scout", default="target/release/scout")
    ap.add_argument("--corpora", default="/work/corpora/dev",
                    help="directory holding one extracted tree per repository")
    ap.add_argument("--questions", default=os.path.join(DEV, "questions.jsonl"))
    ap.add_argument("--split", default="all", choices=["all", "tuning", "held-out"])
    ap.add_argument("--repo", action="append", help="only these repositories")
    ap.add_argument("--mode", action="append", choices=MODES,
                    help="only these commands (default: all three)")
    ap.add_argument("--json", help="write every query's files and scores here")
    ap.add_argument("--show", action="store_true",
                    help="print each tuning query's rank per mode")
    ap.add_argument("--search-arg", action="append", default=[],
                    help="one more argument for every scout search (repeatable)")
    ap.add_argument("--smart-arg", action="append", default=[],
                    help="one more argument for every scout smart (repeatable)")
    ap.add_argument("--fetch", action="store_true",
                    help="extract the missing trees under --corpora, then stop")
    args = ap.parse_args()
    if args.fetch:
        for pins in ("repos.json", "copies-repos.json"):
            with open(os.path.join(DEV, pins)) as f:
                fetch(args.corpora, json.load(f))
        return
    if args.show and args.split != "tuning":
        sys.exit("--show reads queries one by one: only with --split tuning")
    scout = os.path.abspath(args.scout) if os.sep in args.scout else args.scout
    modes = args.mode or list(MODES)
    questions = [q for q in load(args.questions)
                 if (args.split == "all" or q["split"] == args.split)
                 and (not args.repo or q["repo"] in args.repo)]
    missing = sorted({q["repo"] for q in questions
                      if not os.path.isdir(os.path.join(args.corpora, q["repo"]))})
    if missing:
        sys.exit("no tree for %s under %s: `python3 bench/smart/dev.py --fetch "
                 "--corpora %s` makes them" % (", ".join(missing), args.corpora,
                                               args.corpora))
    env = clean_env()
    rows = []
    for q, shape, text in queries(questions):
        cwd = os.path.join(args.corpora, q["repo"])
        targets = {t["path"] for t in q["targets"]}
        cache = {}
        for mode in modes:
            routed_to = ("search" if len(text.split()) == 1 else "smart") \
                if mode == "routed" else mode
            if routed_to not in cache:
                extra = args.search_arg if routed_to == "search" else args.smart_arg
                cache[routed_to] = files_of(scout, routed_to, text, cwd, env, extra)
            files, secs = cache[routed_to]
            refused = files is None
            files = files or []
            rows.append({"refused": refused, "id": q["id"], "repo": q["repo"], "lang": q["lang"],
                         "split": q["split"], "shape": shape, "mode": mode,
                         "query": text, "files": files[:10], "secs": secs,
                         "ndcg10": ndcg10(files, targets),
                         "rank": rank10(files, targets)})
        if args.show:
            print("%-28s %-12s %s  %s" % (
                q["id"], shape,
                " ".join("%s=%s" % (r["mode"], r["rank"] or "-")
                         for r in rows[-len(modes):]), text[:70]))
    splits = ["tuning", "held-out"] if args.split == "all" else [args.split]
    print("## scout on the development set: %d questions, %d repositories, %d languages"
          % (len(questions), len({q["repo"] for q in questions}),
             len({q["lang"] for q in questions})))
    print()
    print("| split | mode | shape | n | NDCG@10 | MRR@10 | hit@5 | files in 10 | refused | p50 ms |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|--:|")
    for split in splits:
        for mode in modes:
            mine = [r for r in rows if r["split"] == split and r["mode"] == mode]
            groups = [("questions", [r for r in mine if r["shape"] != "name"])]
            groups += [(s, [r for r in mine if r["shape"] == s]) for s in SHAPES]
            for label, group in groups:
                s = summarize(group)
                if s:
                    print("| %s | %s | %s | %d | %.3f | %.3f | %.2f | %.1f | %d | %.0f |" % (
                        split, mode, label, s["n"], s["ndcg10"], s["mrr10"],
                        s["hit5"], s["files10"], s["refused"], s["p50_ms"]))
    print()
    print("questions: every question as written (names not included); name: the "
          "symbol questions asked as their bare name. files in 10: distinct files "
          "among the first 10 shown. refused: queries the command refused (exit 2), "
          "scored as no answer.")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
