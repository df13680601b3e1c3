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

Against the callers oracle (bench/callers/: select.py's targets and the
oracle's cache of true call sites), per call, not per line (#51):

    python3 bench/edit/scoped.py --scout target/release/scout --tree /tmp/corpus/flask-2ac89889 \
        --lang python --targets /tmp/callers-oracle/flask-2ac89889.targets.json \
        --oracle /tmp/callers-oracle/flask-2ac89889-py.json

With the rewrite `($F)($$$A)`, every call the edit rewrites shows in its
hunks as `(CALLEE)(`: the script reads the called name off each one
added. Per target and in total it reports:
  outside   lines the edit changes outside every match the search keeps
            (a match spans its first to its last line)
  excess    matches the edit kept beyond the calls the graph attributes
            (with the default pattern, every call: each kept match must be
            one attributed call, so this is 0)
  other     rewritten calls whose called name is not the target's (another
            call on an attributed line, or one in a capture of the match);
            an import alias of the target counts as other, so a nonzero
            figure is a place to look, 0 is the promise
  line precision  of the lines the edit's matches start on and of the
            lines the search shows, against the oracle's (path, line)
            sites, oracle-ambiguous lines left out: a scoped rewrite's
            precision is its search's (the per-call columns above say that
            it writes no other call on those lines)
Exit 1 when any target's `outside`, `excess` or `other` is not 0, or its
lines differ.
"""
import re

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
    ap.add_argument("--target", action="append", default=[])
    ap.add_argument("--targets", help="select.py's targets JSON (their `spec`s)")
    ap.add_argument("--oracle", help="the oracle's cache JSON (true call sites per spec)")
    ap.add_argument("--pattern", default="$F($$$A)")
    ap.add_argument("--rewrite", default="($F)($$$A)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", dest="json_out")
    args = ap.parse_args()
    targets = list(args.target)
    names = {}
    if args.targets:
        with open(args.targets) as f:
            for t in json.load(f):
                targets.append(t["spec"])
                names[t["spec"]] = t["name"]
    if not targets:
        ap.error("give --target or --targets")
    oracle = {}
    if args.oracle:
        with open(args.oracle) as f:
            oracle = json.load(f)
        oracle = oracle.get("targets", oracle)
    scout = os.path.abspath(args.scout)
    home = tempfile.mkdtemp(prefix="scout-scoped-")
    env = dict(os.environ, XDG_STATE_HOME=os.path.join(home, "state"),
               XDG_CACHE_HOME=os.path.join(home, "cache"))
    for var in ("SCOUT_SESSION_ID", "CLAUDE_CODE_SESSION_ID", "CODEX_THREAD_ID"):
        env.pop(var, None)
    rows, failed = [], False
    totals = {"outside": 0, "excess": 0, "other": 0, "calls": 0, "edit_tp": 0, "edit_lines": 0,
              "search_tp": 0, "search_lines": 0}
    for target in targets:
        search = [scout, "search", "--structural", "--lang", args.lang, "--callers-of", target,
                  "--json", "--budget-tokens", "0", "-m", "10000", "--again", "-e", args.pattern]
        edit = [scout, "edit", "--structural", "--lang", args.lang, "--callers-of", target,
                "--dry-run", "--json", "-e", args.pattern, "--rewrite", args.rewrite]
        run(search, args.tree, env)  # warm the graph's cache, as a session would have
        times = {"search": [], "edit": []}
        shown = rewritten = None
        spans = set()
        changed, called, excess = set(), [], 0
        for _ in range(args.runs):
            t, out = run(search, args.tree, env)
            times["search"].append(t)
            doc = json.loads(out.stdout) if out.stdout.strip() else {"results": []}
            shown = {f'{r["path"]}:{q["line"]}' for r in doc["results"] for q in r["lines"]}
            # Every line a kept match spans (a multi-line call's arguments
            # are re-indented with it).
            spans = {f'{r["path"]}:{n}' for r in doc["results"] for q in r["lines"]
                     for n in range(q["line"], max(q["line"], q.get("last_line") or 0) + 1)}
            t, out = run(edit, args.tree, env)
            times["edit"].append(t)
            if out.returncode not in (0, 1):
                print(f"{target}: edit exit {out.returncode}: {out.stderr.strip()}", file=sys.stderr)
                failed = True
                rewritten = set()
                continue
            doc = json.loads(out.stdout)
            rewritten = {f'{c["path"]}:{n}' for c in doc["changes"] for n in c["lines"]}
            changed, called = changed_calls(doc)
            attributed = (doc.get("scope") or {}).get("attributed", 0)
            excess = max(0, doc["matches"] - attributed) if args.pattern == "$F($$$A)" else 0
        same = shown == rewritten
        failed |= not same
        name = names.get(target) or re.split(r"[#.:]", target)[-1]
        outside = sorted(changed - spans) if rewritten is not None else []
        other = [(where, n) for where, n in called if n != name] if rewritten else []
        failed |= bool(outside) or bool(other) or excess > 0
        check = {"outside": len(outside), "excess": excess, "other": len(other),
                 "calls": len(called) if rewritten else 0,
                 "outside_lines": outside[:5], "other_calls": other[:5]}
        if target in oracle:
            sites = {f"{p.removeprefix('./')}:{n}" for p, n in oracle[target]["sites"]}
            amb = {f"{p.removeprefix('./')}:{n}" for p, n in oracle[target].get("ambiguous", [])} - sites
            strip = lambda lines: {x.removeprefix("./") for x in lines} - amb  # noqa: E731
            # Lines as the oracle counts them: where each call starts.
            edit_lines, search_lines = strip(rewritten or set()), strip(shown)
            check.update(edit_tp=len(edit_lines & sites), edit_lines=len(edit_lines),
                         search_tp=len(search_lines & sites), search_lines=len(search_lines))
        for key in totals:
            totals[key] += check.get(key, 0)
        ms = {k: statistics.median(v) * 1000 for k, v in times.items()}
        row = {"target": target, "shown": len(shown), "rewritten": len(rewritten), "same": same,
               "search_ms": round(ms["search"], 1), "edit_ms": round(ms["edit"], 1),
               "ratio": round(ms["edit"] / ms["search"], 2) if ms["search"] else None,
               "only_search": sorted(shown - rewritten)[:5], "only_edit": sorted(rewritten - shown)[:5],
               **check}
        rows.append(row)
        print(f'{target:40} lines shown {row["shown"]:4} rewritten {row["rewritten"]:4} '
              f'same={same}  search {row["search_ms"]:7.1f} ms  edit {row["edit_ms"]:7.1f} ms  '
              f'x{row["ratio"]}')
        if not same:
            print(f'  only in search: {row["only_search"]}  only in edit: {row["only_edit"]}')
        if outside or other or excess:
            print(f'  calls rewritten {check["calls"]}: outside the search {outside[:5]}; '
                  f'beyond the attributed calls {excess}; other names {other[:5]}')
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(rows, f, indent=1)
    pct = (lambda a, b: f"{a / b:.3f}" if b else "-")  # noqa: E731
    print(f'calls rewritten {totals["calls"]}: outside the search {totals["outside"]} lines, '
          f'beyond the attributed calls {totals["excess"]}, other names {totals["other"]} calls')
    if oracle:
        print(f'line precision against the oracle: edit {pct(totals["edit_tp"], totals["edit_lines"])} '
              f'({totals["edit_tp"]}/{totals["edit_lines"]}), search '
              f'{pct(totals["search_tp"], totals["search_lines"])} '
              f'({totals["search_tp"]}/{totals["search_lines"]})')
    ratios = [r["ratio"] for r in rows if r["ratio"]]
    if ratios:
        print(f"median ratio edit/search: {statistics.median(ratios):.2f} over {len(ratios)} targets")
    sys.exit(1 if failed else 0)


WRAPPED = re.compile(r"([A-Za-z_$][A-Za-z0-9_$]*)\s*\)\(")


def changed_calls(doc):
    """The lines the edit changes (`path:line`, old numbering) and, for
    each call its hunks wrap as `(CALLEE)(`, where and the called name."""
    changed, called = set(), []
    for change in doc["changes"]:
        for hunk in change["hunks"]:
            first = hunk["line"]
            changed |= {f'{change["path"]}:{first + i}' for i in range(len(hunk["before"]))}
            before = " ".join(hunk["before"])
            after = " ".join(hunk["after"])
            gained = {}
            for m in WRAPPED.finditer(after):
                gained[m.group(1)] = gained.get(m.group(1), 0) + 1
            for m in WRAPPED.finditer(before):
                gained[m.group(1)] = gained.get(m.group(1), 0) - 1
            for name, n in gained.items():
                called += [(f'{change["path"]}:{first}', name)] * max(n, 0)
    return changed, called


if __name__ == "__main__":
    main()
