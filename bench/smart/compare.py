#!/usr/bin/env python3
"""Compares two `score.py --json` runs over the same questions, per split
and per stratum of the first run's file rank:

    python3 bench/smart/compare.py BEFORE.json AFTER.json

- easy: the first run ranked a target's file first;
- medium: at ranks 2 to 10;
- hard: not in the first 10.

For each split and stratum: n, then file-level and definition-level
MRR@10 of each run, and how many questions moved up or down at the file
level. "Easy questions not lower" reads off the easy rows. Standard
library only.
"""

import json
import sys


def mrr(ranks):
    return sum(1 / r for r in ranks if r) / max(1, len(ranks))


def stratum(rank):
    if rank == 1:
        return "easy"
    if rank and rank <= 10:
        return "medium"
    return "hard"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before = {r["id"]: r for r in json.load(open(sys.argv[1]))}
    after = {r["id"]: r for r in json.load(open(sys.argv[2]))}
    ids = [i for i in before if i in after]
    print("| split | stratum | n | file MRR@10 before | after | def MRR@10 before | after | up | down |")
    print("|---|---|---|---|---|---|---|---|---|")
    splits = sorted({before[i]["split"] for i in ids})
    for split in splits:
        part = [i for i in ids if before[i]["split"] == split]
        for name in ("all", "easy", "medium", "hard"):
            rows = [i for i in part if name == "all" or stratum(before[i]["smart_file"]) == name]
            if not rows:
                continue
            fb = [before[i]["smart_file"] for i in rows]
            fa = [after[i]["smart_file"] for i in rows]
            db = [before[i]["smart_def"] for i in rows]
            da = [after[i]["smart_def"] for i in rows]
            key = lambda r: r or 99
            up = sum(1 for b, a in zip(fb, fa) if key(a) < key(b))
            down = sum(1 for b, a in zip(fb, fa) if key(a) > key(b))
            print(f"| {split} | {name} | {len(rows)} | {mrr(fb):.2f} | {mrr(fa):.2f} | "
                  f"{mrr(db):.2f} | {mrr(da):.2f} | {up} | {down} |")


if __name__ == "__main__":
    main()
