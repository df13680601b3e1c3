#!/usr/bin/env python3
"""Side-by-side benchmark of `scout search` against `rg -n` (and peers).

Derives queries from REPO (seeded, stratified by how many files rg finds
them in), builds an independent definition oracle (universal-ctags for the
languages it knows, a declaration regex per language for Swift, Scala, Zig
and Dart, else a keyword regex run by rg), runs every tool on every query
--runs times, interleaved per query, and reports per tool and stratum:
stdout bytes and their ratio to rg's, def-recall and def-line recall of
the first page, the share of definition files shown under a heading, p50
and p90 latency, and the median per-query latency ratio to rg.

    python3 bench/bench.py REPO [--queries 40] [--seed 1] [--runs 3]
        [--scout PATH] [--peer NAME='CMD {q}']... [--out FILE] [--verbose]

A peer command is run by the shell with cwd = REPO; in it {q} is the
shell-quoted pattern, {F} is `-F` for literal queries (else empty), {E} is
`-E` for regex queries (else empty) and {i} is `-i` for case-insensitive
ones (else empty).
Example: --peer 'grep=grep -rn {i} {F} {E} -e {q} .'
"""

import argparse
import json
import os
import platform
import shlex
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402


def log(msg):
    print("# " + msg, file=sys.stderr, flush=True)


class Tool:
    """A command to compare. argv(query) gives a list (or a shell string)."""

    def __init__(self, name, argv, shell=False, env=None):
        self.name, self.argv, self.shell, self.env = name, argv, shell, env


def make_tools(args, state_dir):
    scout = bl.find_scout(args.scout)
    tools = [Tool("rg", lambda q: ["rg", "-n", "--no-heading"] + q.rg_flags()
                  + ["-e", q.text, "."])]
    if not args.no_scout:
        extra = list(args.scout_arg or [])
        env = bl.scout_env(state_dir)
        tools.append(Tool("scout", lambda q: [scout, "search"] + extra
                          + q.scout_flags() + [q.text, "."], env=env))
    for spec in args.peer or []:
        if "=" not in spec:
            raise SystemExit("--peer wants NAME='CMD {q}', got %r" % spec)
        name, tmpl = spec.split("=", 1)

        def peer_cmd(q, tmpl=tmpl):
            return (tmpl.replace("{q}", shlex.quote(q.text))
                    .replace("{F}", "-F" if q.literal else "")
                    .replace("{E}", "-E" if q.kind == "regex" else "")
                    .replace("{i}", "-i" if q.kind == "icase" else ""))
        tools.append(Tool(name.strip(), peer_cmd, shell=True))
    return tools, scout


def same_output(a, b, tool):
    """scout must repeat itself byte for byte (elapsed ms masked); rg and
    peers print in thread order, so only their sorted lines must agree."""
    if tool == "scout":
        return bl.MS_RE.sub(b"", a) == bl.MS_RE.sub(b"", b)
    return sorted(a.split(b"\n")) == sorted(b.split(b"\n"))


def group_of(q):
    if q.kind == "regex":
        return "regex"
    if q.kind == "icase":
        return "-i"
    return q.stratum


def first_defines(out, defs, exists):
    """(first file defines, first quoted line defines) of one output for
    one query's oracle definitions (#24): whether the first file of the
    page (or of rg's plain lines) is one of the oracle's definition files,
    and whether the first line quoted is within 2 lines of one of its
    definition lines; None when the oracle has none or nothing was
    printed."""
    if not defs:
        return None, None
    page = bl.parse_scout(out, exists)
    if page.ranked:
        if not page.files:
            return None, None
        path, lines = page.files[0][0], page.files[0][3]
        line = lines[0][0] if lines else None
    elif page.plain:
        path, line = page.plain[0][0], page.plain[0][1]
    else:
        return None, None
    dfiles = {p for p, _ in defs}
    near = line is not None and any(
        p == path and abs(n - line) <= 2 for p, n in defs)
    return float(path in dfiles), float(near)


def def_rank(out, defs, exists):
    """1/rank of the first oracle definition file among the files of one
    output, in the order printed (the page's files, or rg's plain lines'
    files as they first appear); 0 when none is printed, None when the
    oracle has no definition."""
    if not defs:
        return None
    page = bl.parse_scout(out, exists)
    if page.ranked:
        order = [f[0] for f in page.files]
    else:
        order = list(dict.fromkeys(p for p, _, _ in page.plain))
    dfiles = {p for p, _ in defs}
    for rank, path in enumerate(order, 1):
        if path in dfiles:
            return 1.0 / rank
    return 0.0


def recall(out, defs, exists):
    """(def-file recall, def-line recall) of one output for one query's
    oracle definitions; None when the oracle has none."""
    if not defs:
        return None, None
    page = bl.parse_scout(out, exists)
    named = page.named_paths()
    shown = page.shown_lines()
    if not named and out:
        # Unknown peer format: a definition file counts as named when its
        # path appears in the output at all; lines cannot be judged.
        named = {p for p, _ in defs if p in out}
    dfiles = {p for p, _ in defs}
    file_recall = len(dfiles & named) / len(dfiles)
    by_file = {}
    for p, n in shown:
        by_file.setdefault(p, []).append(n)
    hit = sum(1 for p, line in defs
              if any(abs(n - line) <= 2 for n in by_file.get(p, ())))
    return file_recall, hit / len(defs)


def headed(out, defs, exists):
    """(definition files on the page that show a heading, definition files
    on the page with quoted lines): how often a file holding a definition
    of the name groups its lines under their enclosing definition. None
    when the oracle has none or the output is not a ranked page."""
    if not defs:
        return None
    page = bl.parse_scout(out, exists)
    if not page.ranked:
        return None
    dfiles = {p for p, _ in defs}
    shown = [f[0] for f in page.files if f[0] in dfiles and f[3]]
    return sum(1 for p in shown if p in page.headed), len(shown)


def fmt(x, spec="%.2f"):
    return "-" if x is None else spec % x


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("repo")
    ap.add_argument("--queries", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--peer", action="append", metavar="NAME='CMD {q}'")
    ap.add_argument("--out", help="write the full results as JSON here")
    ap.add_argument("--scout", help="scout binary (default: scout on PATH, "
                    "else /work/main/target/release/scout)")
    ap.add_argument("--scout-arg", action="append",
                    help="extra argument for scout search (repeatable)")
    ap.add_argument("--no-scout", action="store_true",
                    help="measure rg and peers only")
    ap.add_argument("--oracle", choices=["auto", "ctags", "regex"],
                    default="auto")
    ap.add_argument("--timeout", type=float, default=bl.DEFAULT_TIMEOUT,
                    help="seconds per command (default 60)")
    ap.add_argument("--verbose", action="store_true",
                    help="print a per-query table too")
    args = ap.parse_args()
    repo = os.path.abspath(args.repo)
    if not os.path.isdir(repo):
        raise SystemExit("not a directory: %s" % repo)

    t0 = time.perf_counter()
    queries = bl.derive_queries(repo, args.queries, args.seed, log=log)
    # The oracle looks up identifiers, and the names -i queries lower-case.
    idents = sorted({q.name for q in queries if q.name})
    oracle_name, oracle = bl.build_oracle(repo, idents, args.oracle, log=log)
    log("setup took %.1fs" % (time.perf_counter() - t0))

    state = tempfile.mkdtemp(prefix="scout-bench-")
    tools, scout = make_tools(args, state)
    exists = bl.repo_exists(repo)
    versions = {"rg": bl.run(["rg", "--version"], repo).out.split(b"\n")[0]
                .decode(errors="replace")}
    if not args.no_scout:
        v = bl.run([scout, "--version"], repo)
        versions["scout"] = (v.out or v.err).split(b"\n")[0].decode(
            errors="replace")
        if v.code != 0:
            log("warning: `%s --version` failed (%s)" % (scout, v.code))

    rows = []  # one per (query, tool)
    t1 = time.perf_counter()
    for qi, q in enumerate(queries):
        runs = {t.name: [] for t in tools}
        for _ in range(args.runs):
            for t in tools:
                r = bl.run(t.argv(q), repo, env=t.env, timeout=args.timeout,
                           shell=t.shell)
                runs[t.name].append(r)
        defs = oracle.get(q.name) if q.name else None
        for t in tools:
            rs = runs[t.name]
            first = rs[0]
            ok = [r for r in rs if not r.timed_out and r.code in (0, 1, 3)]
            fr, lr = (recall(first.out, defs, exists)
                      if q.name else (None, None))
            ff, fl = (first_defines(first.out, defs, exists)
                      if q.name else (None, None))
            mrr = def_rank(first.out, defs, exists) if q.name else None
            heads = headed(first.out, defs, exists) if q.name else None
            row = {
                "query": q.label(), "kind": q.kind, "group": group_of(q),
                "rg_files": q.files, "tool": t.name,
                "bytes": len(first.out),
                "secs": bl.median([r.secs for r in ok]) if ok else None,
                "all_secs": [round(r.secs, 6) for r in rs],
                "codes": [r.code for r in rs],
                "timeouts": sum(r.timed_out for r in rs),
                "errors": sum(1 for r in rs if not r.timed_out
                              and r.code not in (0, 1, 3)),
                "same_bytes": all(same_output(r.out, first.out, t.name)
                                  for r in rs),
                "defs": len(defs) if defs else 0,
                "def_recall": fr, "def_line_recall": lr,
                "first_file_defines": ff, "first_line_defines": fl,
                "def_rr": mrr,
                "headed": heads,
                "ranked": first.out.startswith(b"query: "),
            }
            if row["errors"] or row["timeouts"]:
                log("%s on %r: codes %s%s; stderr: %s" % (
                    t.name, q.label(), row["codes"],
                    " (timeout)" if row["timeouts"] else "",
                    first.err[:200].decode(errors="replace").strip()))
            rows.append(row)
        if (qi + 1) % 10 == 0:
            log("%d/%d queries, %.0fs" % (qi + 1, len(queries),
                                          time.perf_counter() - t1))

    summary = summarize(rows, tools, queries)
    print_report(summary, rows, tools, args, repo, oracle_name, versions,
                 queries, time.perf_counter() - t1)
    if args.out:
        doc = {"repo": repo, "seed": args.seed, "runs": args.runs,
               "oracle": oracle_name, "versions": versions,
               "machine": {"cpus": os.cpu_count(),
                           "platform": platform.platform()},
               "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
               "queries": [q.to_json() for q in queries],
               "oracle_defs": {k: sorted([p.decode(errors="replace"), n]
                                         for p, n in v)
                               for k, v in oracle.items()},
               "summary": summary, "rows": rows}
        with open(args.out, "w") as fh:
            json.dump(doc, fh, indent=1)
        log("wrote %s" % args.out)
    import shutil
    shutil.rmtree(state, ignore_errors=True)


def summarize(rows, tools, queries):
    # "ident": every identifier query (the strata together), the set the
    # byte and recall targets speak of.
    groups = [s for s, _, _ in bl.STRATA] + ["ident", "regex", "-i", "all"]
    rg_by_query = {r["query"]: r for r in rows if r["tool"] == "rg"}
    out = []
    for t in tools:
        for g in groups:
            rs = [r for r in rows if r["tool"] == t.name
                  and (g == "all" or r["group"] == g
                       or g == "ident" and r["kind"] == "ident")]
            if not rs:
                continue
            byt = sum(r["bytes"] for r in rs)
            rg_byt = sum(rg_by_query[r["query"]]["bytes"] for r in rs)
            secs = [r["secs"] for r in rs if r["secs"] is not None]
            ratios = [r["secs"] / rg_by_query[r["query"]]["secs"] for r in rs
                      if r["secs"] and rg_by_query[r["query"]]["secs"]]
            added = [r["secs"] - rg_by_query[r["query"]]["secs"] for r in rs
                     if r["secs"] and rg_by_query[r["query"]]["secs"]]
            dr = [r["def_recall"] for r in rs if r["def_recall"] is not None]
            lr = [r["def_line_recall"] for r in rs
                  if r["def_line_recall"] is not None]
            ff = [r["first_file_defines"] for r in rs
                  if r.get("first_file_defines") is not None]
            fl = [r["first_line_defines"] for r in rs
                  if r.get("first_line_defines") is not None]
            rr = [r["def_rr"] for r in rs if r.get("def_rr") is not None]
            hd = [r["headed"] for r in rs if r.get("headed")]
            hd_files = sum(n for _, n in hd)
            out.append({
                "tool": t.name, "group": g, "queries": len(rs),
                "bytes": byt, "bytes_vs_rg": byt / rg_byt if rg_byt else None,
                "ranked": sum(r["ranked"] for r in rs),
                "recall_queries": len(dr),
                "def_recall": sum(dr) / len(dr) if dr else None,
                "def_line_recall": sum(lr) / len(lr) if lr else None,
                "first_file_defines": sum(ff) / len(ff) if ff else None,
                "first_line_defines": sum(fl) / len(fl) if fl else None,
                "def_mrr": sum(rr) / len(rr) if rr else None,
                "headed": (sum(h for h, _ in hd) / hd_files
                           if hd_files else None),
                "p50_ms": bl.percentile(secs, 50) * 1000 if secs else None,
                "p90_ms": bl.percentile(secs, 90) * 1000 if secs else None,
                "median_time_vs_rg": bl.median(ratios) if ratios else None,
                "added_ms_p50": bl.median(added) * 1000 if added else None,
                "timeouts": sum(r["timeouts"] for r in rs),
                "errors": sum(r["errors"] for r in rs),
                "nondeterministic": sum(not r["same_bytes"] for r in rs),
            })
    return out


def print_report(summary, rows, tools, args, repo, oracle_name, versions,
                 queries, secs):
    print("## scout bench: %s" % repo)
    print()
    print("%d queries (seed %d), %d runs each, interleaved; oracle: %s; %s"
          % (len(queries), args.seed, args.runs, oracle_name,
             "; ".join("%s: %s" % kv for kv in versions.items())))
    print()
    print("| tool | group | queries | stdout bytes | bytes vs rg | ranked "
          "| def-recall (n) | def-line recall | first file def "
          "| first line def | def MRR | headed | p50 ms | p90 ms "
          "| median time vs rg | added ms p50 | timeouts/errors/nondet |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for s in summary:
        print("| %s | %s | %d | %d | %s | %d | %s (%d) | %s | %s | %s | %s | %s | %s | %s | %s "
              "| %s | %d/%d/%d |" % (
                  s["tool"], s["group"], s["queries"], s["bytes"],
                  fmt(s["bytes_vs_rg"], "%.3f"), s["ranked"],
                  fmt(s["def_recall"]), s["recall_queries"],
                  fmt(s["def_line_recall"]), fmt(s["first_file_defines"]),
                  fmt(s["first_line_defines"]), fmt(s["def_mrr"]),
                  fmt(s.get("headed")), fmt(s["p50_ms"], "%.1f"),
                  fmt(s["p90_ms"], "%.1f"), fmt(s["median_time_vs_rg"]),
                  fmt(s["added_ms_p50"], "%.2f"), s["timeouts"], s["errors"], s["nondeterministic"]))
    print()
    print("bytes vs rg: total stdout bytes over total `rg -n` bytes for the "
          "same queries. def-recall: share of the oracle's definition files "
          "named on the first page (identifier queries with >=1 definition). "
          "def-line recall: share of definition lines quoted within 2 lines. "
          "first file def / first line def: share of those queries whose "
          "first file (of the page, or of rg's plain lines) is a definition "
          "file, and whose first quoted line is within 2 lines of a "
          "definition line. "
          "headed: of the oracle's definition files quoted on the first "
          "page, the share that show an enclosing-definition heading. "
          "def MRR: the mean over those queries (identifiers, and -i "
          "queries looked up by the name in the tree's case) of 1/rank of "
          "the first definition file among the files printed, in order "
          "(0 when none is). "
          "Latency: per-query median of the runs; p50/p90 over queries. "
          "added ms p50: the median over queries of the tool's time minus "
          "rg's (per-query medians). "
          "Measured in %.0fs." % secs)
    if args.verbose:
        print()
        print("| query | group | rg files | defs | " + " | ".join(
            "%s bytes | %s ms | %s recall" % (t.name, t.name, t.name)
            for t in tools) + " |")
        print("|---|---|--:|--:|" + "--:|--:|--:|" * len(tools))
        by = {}
        for r in rows:
            by.setdefault(r["query"], {})[r["tool"]] = r
        for q in queries:
            d = by[q.label()]
            any_r = next(iter(d.values()))
            cells = []
            for t in tools:
                r = d[t.name]
                cells += [str(r["bytes"]),
                          fmt(r["secs"] * 1000 if r["secs"] else None, "%.1f"),
                          "%s/%s" % (fmt(r["def_recall"]),
                                     fmt(r["def_line_recall"]))]
            print("| `%s` | %s | %s | %d | %s |" % (
                q.label().replace("|", "\\|"), any_r["group"], q.files,
                any_r["defs"], " | ".join(cells)))


if __name__ == "__main__":
    main()
