#!/usr/bin/env python3
"""Scoped rewrites on a real tree: `scout edit --callers-of` against the
`scout search --callers-of` it must agree with.

For each TARGET (PATH#SYMBOL, relative to the tree) and the pattern
`$F($$$A)` (every call), it runs, in the tree, interleaved, --runs times:

    scout search --structural --lang L --callers-of T --json --budget-tokens 0 -m 10000 --again -e P
    scout edit   --structural --lang L --callers-of T --dry-run --json -e P --rewrite R

and reports whether the lines the edit's matches start on (its JSON's
`lines`) are exactly the lines the search shows (path:line sets), the counts, and the median wall time of
each with their ratio (edit / search). The rewrite `($F)($$$A)` changes
every call and keeps it valid code in Python, JavaScript and TypeScript.
Nothing is written (--dry-run); the state and cache directories are
temporary and the graph cache is warmed by one search first.

    python3 bench/edit/scoped.py --scout target/release/scout --tree DIR \
        --lang python --target os.py#makedirs --target shutil.py#copyfile
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run(cmd, cwd, env):
    started = time.perf_counter()
    out = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    return time.perf_counter() - started, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scout", required=True)
    ap.add_argument("--tree", required=True)
    ap.add_argument("--lang", required=True)
    ap.add_argument("--target", action="append", required=True)
    ap.add_argument("--pattern", default="$F($$$A)")
    ap.add_argument("--rewrite", default="($F)($$$A)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", dest="json_out")
    args = ap.parse_args()
    scout = os.path.abspath(args.scout)
    home = tempfile.mkdtemp(prefix="scout-scoped-")
    env = dict(os.environ, XDG_STATE_HOME=os.path.join(home, "state"),
               XDG_CACHE_HOME=os.path.join(home, "cache"))
    for var in ("SCOUT_SESSION_ID", "CLAUDE_CODE_SESSION_ID", "CODEX_THREAD_ID"):
        env.pop(var, None)
    rows, failed = [], False
    for target in args.target:
        search = [scout, "search", "--structural", "--lang", args.lang, "--callers-of", target,
                  "--json", "--budget-tokens", "0", "-m", "10000", "--again", "-e", args.pattern]
        edit = [scout, "edit", "--structural", "--lang", args.lang, "--callers-of", target,
                "--dry-run", "--json", "-e", args.pattern, "--rewrite", args.rewrite]
        run(search, args.tree, env)  # warm the graph's cache, as a session would have
        times = {"search": [], "edit": []}
        shown = rewritten = None
        for _ in range(args.runs):
            t, out = run(search, args.tree, env)
            times["search"].append(t)
            doc = json.loads(out.stdout) if out.stdout.strip() else {"results": []}
            shown = {f'{r["path"]}:{q["line"]}' for r in doc["results"] for q in r["lines"]}
            t, out = run(edit, args.tree, env)
            times["edit"].append(t)
            if out.returncode not in (0, 1):
                print(f"{target}: edit exit {out.returncode}: {out.stderr.strip()}", file=sys.stderr)
                failed = True
                rewritten = set()
                continue
            doc = json.loads(out.stdout)
            rewritten = {f'{c["path"]}:{n}' for c in doc["changes"] for n in c["lines"]}
        same = shown == rewritten
        failed |= not same
        ms = {k: statistics.median(v) * 1000 for k, v in times.items()}
        row = {"target": target, "shown": len(shown), "rewritten": len(rewritten), "same": same,
               "search_ms": round(ms["search"], 1), "edit_ms": round(ms["edit"], 1),
               "ratio": round(ms["edit"] / ms["search"], 2) if ms["search"] else None,
               "only_search": sorted(shown - rewritten)[:5], "only_edit": sorted(rewritten - shown)[:5]}
        rows.append(row)
        print(f'{target:40} lines shown {row["shown"]:4} rewritten {row["rewritten"]:4} '
              f'same={same}  search {row["search_ms"]:7.1f} ms  edit {row["edit_ms"]:7.1f} ms  '
              f'x{row["ratio"]}')
        if not same:
            print(f'  only in search: {row["only_search"]}  only in edit: {row["only_edit"]}')
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(rows, f, indent=1)
    ratios = [r["ratio"] for r in rows if r["ratio"]]
    if ratios:
        print(f"median ratio edit/search: {statistics.median(ratios):.2f} over {len(ratios)} targets")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
