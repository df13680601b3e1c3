#!/usr/bin/env python3
"""Scores the peer tool jouet's `--callers-of` against the call-site oracles,
the way score.py scores scout.

    python3 bench/callers/peer.py CORPUS [CORPUS...] [--jouet PATH]
        [--peer-root DIR] [--targets FILE]... [--detail] [--out FILE.json]
        [--md FILE.md] [--pattern LANG=PAT]... [--raw-lines] [--timeout 60]

jouet's callers-of needs a git work tree, so it runs on a COPY of each corpus,
DIR/NAME (default /tmp/peer-corpus/NAME), made once with
`cp -a CORPUS DIR/NAME && cd DIR/NAME && git init -q && git add -A &&
git -c user.email=x@y -c user.name=x commit -qm init`; targets and oracle come
from /tmp/callers-oracle/ exactly as in score.py. Per target, from DIR/NAME,
once per (peer language, pattern) of the target's language (PATTERNS below):

    jouet --json search --structural --lang L PAT --callers-of SYM --again \
        --budget 0 --file-budget 0

with no agent session and private XDG cache/state/data dirs (the graph is
built once per corpus by `jouet graph index` before any timing).
attributed = every files[].shown[] (path, line), united over the patterns;
cannot_tell = scope.unresolved (pattern matches the graph could not link:
reason `unlinked`); unmatched = scope.unmatched (references the graph links
to the symbol that the pattern did not match), minus the other two.
SYM: scout's `PATH#A.B` becomes `PATH#A::B` (jouet's qualified names use
`::`; a suffix of its Java `pkg::Class::m` works); when that is refused
(a field and a method of one name, overloads) or resolves to a definition
whose start is not the target's line (or up to 3 lines above it:
decorators, annotations), `PATH:LINE` (the innermost symbol at the target's
name line). `#ID` from `jouet graph symbols` is refused by 0.0.3's search.
A match's line is its first line; when the target's name is not on it but
on a later line of the match (`a\\n  .name(x)`), that later line
(--raw-lines keeps the first line). Columns as in score.py, plus
`unmatched` (real calls the graph linked but no pattern matched) and
`calls` (jouet invocations per target); peer_per_site is
(attributed + cannot_tell) / oracle; p50/p90 ms are the wall time of all
of a target's invocations, run one after the other. Errors (a refused
symbol, no JSON) count as 0 attributed and are listed.
"""
import os
import sys

# select.py lives beside this file: keep it from shadowing the standard select module
HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # importing score.py must leave no __pycache__ in the repo
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import subprocess  # noqa: E402,F401  (imported before score.py, after the path fix)
import tempfile  # noqa: E402

_spec = importlib.util.spec_from_file_location("callers_score", os.path.join(HERE, "score.py"))
score = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(score)  # also puts bench/ on sys.path
import benchlib  # noqa: E402

# Per oracle language: (jouet --lang, pattern) pairs. Each is one invocation.
# py/ts/java: `$F($$$A)` matches a call whose callee is any expression
# (`a.b(x)` too) in python/typescript/tsx/javascript, but in java only an
# unqualified `m(x)` (method_invocation keeps the receiver apart), hence
# `$O.$F($$$A)`. C: `$F($$$A)` and `$F($A)` match NOTHING in jouet 0.0.3
# (the pattern parses as a declaration), so calls are covered by arity and
# by the contexts of one-argument calls; see README "Peer: jouet".
PATTERNS = {
    "py": [("python", "$F($$$A)")],
    "ts": [(lang, pat) for lang in ("typescript", "tsx", "javascript")
           for pat in ("$F($$$A)", "new $C($$$A)", "$F`$$$T`")] +
          [(lang, pat) for lang in ("tsx", "javascript") for pat in ("<$C $$$A />", "<$C $$$A>")],
    "c": [("c", p) for p in ("$F()", "$F($A, $$$B)", "$F($A);", "$X = $F($A)", "$T $X = $F($A);",
                              "return $F($A);", "($F($A))", "!$F($A)", "$G($F($A))",
                              "$B || $F($A)", "$F($A) || $B", "$C ? $F($A) : $B")],
    "java": [("java", p) for p in ("$F($$$A)", "$O.$F($$$A)", "new $C($$$A)")],
}


def peer_env(state):
    env = dict(os.environ)
    for k in ("JOUET_SESSION_ID", "CLAUDE_CODE_SESSION_ID", "CODEX_THREAD_ID", "SCOUT_SESSION_ID"):
        env.pop(k, None)
    for k in ("CACHE", "STATE", "DATA", "CONFIG"):
        env[f"XDG_{k}_HOME"] = os.path.join(state, k.lower())
    env["NO_COLOR"] = "1"
    return env


def jouet_search(jouet, root, env, lang, pat, sym, timeout):
    argv = [jouet, "--json", "search", "--structural", "--lang", lang, pat, "--callers-of", sym,
            "--again", "--budget", "0", "--file-budget", "0"]
    r = benchlib.run(argv, root, env=env, timeout=timeout)
    try:
        doc = json.loads(r.out)
    except ValueError:
        doc = {"error": {"code": f"exit {r.code}{' (timeout)' if r.timed_out else ''}",
                         "message": (r.err.decode(errors="replace").strip().splitlines() or ["no JSON"])[-1][:300]}}
    return doc, r.secs


def peer_symbol(t):
    return f"{t['path']}#{t['qualname'].replace('.', '::')}"


def resolves_to(doc, t):
    s = ((doc.get("scope") or {}).get("symbol")) or {}
    return (not doc.get("error") and score.strip_dot(s.get("path", "")) == t["path"]
            and t["line"] - 3 <= int(s.get("start_line", -99)) <= t["line"])


def name_line(m, name, raw):
    """The match's line, moved to the first later line of its text that has
    the target's name when its own first line does not (chains, `new\\n X`)."""
    line, text = int(m["line"]), m.get("text", "")
    if raw:
        return line, False
    rows = text.split("\n")
    word = re.compile(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])")
    if len(rows) > 1 and not word.search(rows[0]):
        for i, row in enumerate(rows[1:], 1):
            if word.search(row):
                return line + i, True
    return line, False


def run_target(jouet, root, env, t, timeout, raw):
    pats = PATTERNS[t["lang"]]
    sym = peer_symbol(t)
    how = "name"
    first = jouet_search(jouet, root, env, pats[0][0], pats[0][1], sym, timeout)
    note = None
    if not resolves_to(first[0], t):
        note = first[0].get("error") or {"code": "other_symbol",
                                         "message": str({k: first[0]["scope"]["symbol"].get(k) for k in
                                                         ("qualified_name", "start_line")})}
        sym, how = f"{t['path']}:{t['line']}", "line"
        first = jouet_search(jouet, root, env, pats[0][0], pats[0][1], sym, timeout)
    secs, errors, moved, truncated = 0.0, [], 0, 0
    attributed, cannot, unmatched = set(), set(), set()
    resolved, new_by_pattern, each = None, {}, []
    for i, (lang, pat) in enumerate(pats):
        doc, s = first if i == 0 else jouet_search(jouet, root, env, lang, pat, sym, timeout)
        secs += s
        each.append(s)
        before = len(attributed)
        if doc.get("error"):
            errors.append(f"{lang} {pat}: {doc['error'].get('code')}: {doc['error'].get('message', '')[:200]}")
            continue
        scope = doc.get("scope") or {}
        if resolved is None and scope.get("symbol"):
            sy = scope["symbol"]
            resolved = f"{sy.get('kind')} {sy.get('qualified_name')} @{sy.get('start_line')}"
        for f in doc.get("files", []):
            p = score.strip_dot(f["path"])
            if f.get("matches", 0) != len(f.get("shown", [])):
                truncated += 1
            for m in f.get("shown", []):
                ln, mv = name_line(m, t["name"], raw)
                moved += mv
                attributed.add((p, ln))
        new_by_pattern[f"{lang}: {pat}"] = len(attributed) - before
        cannot |= score.pairs(scope.get("unresolved"))
        unmatched |= score.pairs(scope.get("unmatched"))
    unmatched -= attributed | cannot
    return {"sym": sym, "how": how, "resolve_note": note, "resolved": resolved, "secs": secs,
            "calls": len(pats), "each_secs": each, "new_by_pattern": new_by_pattern,
            "errors": errors, "moved": moved, "truncated": truncated,
            "attributed": attributed, "cannot": cannot, "unmatched": unmatched}


def score_one(corpus, root, t, oracle, jouet, env, timeout, raw):
    out = run_target(jouet, root, env, t, timeout, raw)
    # a target is an error only when no invocation answered (the symbol was refused)
    err = "; ".join(out["errors"][:1]) if len(out["errors"]) == out["calls"] else None
    attributed, cannot, unmatched = out["attributed"], out["cannot"], out["unmatched"]
    if err:
        attributed, cannot, unmatched = set(), set(), set()
    sites = {(p, ln) for p, ln in oracle["sites"]}
    amb = {(p, ln) for p, ln in oracle.get("ambiguous", [])} - sites
    rec = {"spec": t["spec"], "lang": t["lang"], "name": t["name"], "kind": t["kind"], "ndefs": t["ndefs"],
           "secs": out["secs"], "error": err, "peer_sym": out["sym"], "peer_how": out["how"],
           "resolve_note": out["resolve_note"], "resolved": out["resolved"], "calls": out["calls"],
           "each_secs": out["each_secs"], "new_by_pattern": out["new_by_pattern"], "pattern_errors": out["errors"],
           "moved_lines": out["moved"], "truncated_files": out["truncated"]}
    rec.update(oracle=len(sites), attributed=len(attributed), tp=len(attributed & sites),
               fp=sorted(attributed - sites - amb), fn=sorted(sites - attributed - cannot),
               cannot_hit=len((cannot - attributed) & sites), cannot=len(cannot),
               elsewhere_hit=[], unmatched_hit=sorted(unmatched & sites),
               rg=score.rg_lines(corpus, t["name"], timeout))
    rec["scout_pairs"] = len(attributed | cannot)  # score.summary's key: the peer's pairs here
    rec["fp_n"] = len(rec["fp"])
    return rec


COLS = ["targets", "errors", "oracle_sites", "precision", "recall", "recall_mean", "cannot_tell", "coverage",
        "unmatched", "peer_per_site", "rg_per_site", "calls", "p50_ms", "p90_ms"]


def summary(recs):
    s = score.summary(recs)
    ok = [r for r in recs if not r["error"]]
    o = sum(r["oracle"] for r in ok)
    s["unmatched"] = f"{100.0 * sum(len(r['unmatched_hit']) for r in ok) / o:.1f}%" if o else "-"
    s["peer_per_site"] = s.pop("scout_per_site")
    s["calls"] = str(benchlib.median([r["calls"] for r in recs]))
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="+")
    ap.add_argument("--jouet", default="/tmp/jouet/bin/jouet")
    ap.add_argument("--peer-root", default="/tmp/peer-corpus")
    ap.add_argument("--targets", action="append", default=[])
    ap.add_argument("--pattern", action="append", default=[], metavar="LANG=PAT",
                    help="replace PATTERNS[LANG] (py, ts, c, java) by these; PAT is `peerlang:pattern` "
                         "or a pattern for the first peer language")
    ap.add_argument("--raw-lines", action="store_true")
    ap.add_argument("--detail", action="store_true")
    ap.add_argument("--out")
    ap.add_argument("--md")
    ap.add_argument("--timeout", type=float, default=60.0)
    a = ap.parse_args()
    over = {}
    for spec in a.pattern:
        lang, pat = spec.split("=", 1)
        peer_lang, sep, rest = pat.partition(":")
        if sep and peer_lang in ("python", "typescript", "tsx", "javascript", "c", "java"):
            over.setdefault(lang, []).append((peer_lang, rest))
        else:
            over.setdefault(lang, []).append((PATTERNS[lang][0][0], pat))
    PATTERNS.update(over)
    state = tempfile.mkdtemp(prefix="peer-callers-")
    env = peer_env(state)
    version = benchlib.run([a.jouet, "--version"], "/", env=env).out.decode().strip()
    recs, lines = [], []
    for i, c in enumerate(a.corpora):
        corpus = os.path.abspath(c)
        name = os.path.basename(corpus.rstrip("/"))
        root = os.path.join(a.peer_root, name)
        if not os.path.isdir(os.path.join(root, ".git")):
            sys.exit(f"peer.py: {root} is not a git work tree: make the copy (see the docstring)")
        tfile = a.targets[i] if i < len(a.targets) else f"/tmp/callers-oracle/{name}.targets.json"
        targets = json.load(open(tfile))
        lang = targets[0]["lang"]
        ofile = f"/tmp/callers-oracle/{name}-{lang}.json"
        oracle = json.load(open(ofile))["targets"]
        ix = benchlib.run([a.jouet, "graph", "index"], root, env=env, timeout=600)
        lines.append(f"{name}: `jouet graph index` {ix.secs:.1f} s: "
                     + " / ".join(x.strip() for x in (ix.out + ix.err).decode(errors="replace").splitlines()[:1]))
        print(lines[-1], file=sys.stderr)
        for t in targets:
            if t["spec"] not in oracle:
                sys.exit(f"peer.py: {t['spec']} is not in {ofile}: run the oracle on {tfile}")
            r = score_one(corpus, root, t, oracle[t["spec"]], a.jouet, env, a.timeout, a.raw_lines)
            r["corpus"] = corpus
            recs.append(r)
            print(f"{t['spec']} [{r['peer_sym']}]: oracle {r['oracle']} tp {r['tp']} fp {r['fp_n']} "
                  f"fn {len(r['fn'])} cannot {r['cannot_hit']} unmatched {len(r['unmatched_hit'])} "
                  f"{r['secs'] * 1000:.0f}ms{' ERROR ' + r['error'] if r['error'] else ''}", file=sys.stderr)
    table = [(g, summary(rs)) for g, rs in score.groups(recs) if rs]
    md = [f"peer: {a.jouet} ({version}), on copies under {a.peer_root}", ""]
    md += ["| group | " + " | ".join(COLS) + " |", "|---|" + "---:|" * len(COLS)]
    md += [f"| {g} | " + " | ".join(str(s[k]) for k in COLS) + " |" for g, s in table]
    md += ["", "Patterns (jouet --lang: pattern):", ""]
    for lang in [x for x in score.LANG if any(r["lang"] == x for r in recs)]:
        lr = [r for r in recs if r["lang"] == lang]
        each = [x * 1000 for r in lr for x in r["each_secs"]]
        md.append(f"- {score.LANG[lang]} (one invocation: p50 {benchlib.percentile(each, 50):.0f} ms, "
                  f"p90 {benchlib.percentile(each, 90):.0f} ms; pairs each pattern adds to those before it): "
                  + ", ".join(f"`{pl}: {p}` {sum(r['new_by_pattern'].get(pl + ': ' + p, 0) for r in lr)}"
                              for pl, p in PATTERNS[lang]))
    md += [""] + [f"- {x}" for x in lines]
    by_line = [r for r in recs if r["peer_how"] == "line"]
    md.append(f"- symbol form: `PATH#A::B` for {len(recs) - len(by_line)} targets, `PATH:LINE` for {len(by_line)}"
              + (" (" + "; ".join(f"{r['spec']}: {r['resolve_note'].get('code')}" for r in by_line) + ")"
                 if by_line else ""))
    errs = [r for r in recs if r["error"]]
    md.append(f"- errors: {len(errs)} targets" + (f", e.g. {errs[0]['spec']}: {errs[0]['error']}" if errs else ""))
    perr = sum(len(r["pattern_errors"]) for r in recs if not r["error"])
    md.append(f"- failed invocations in answered targets: {perr}"
              + (", e.g. " + next(e for r in recs if not r["error"] for e in r["pattern_errors"]) if perr else ""))
    md.append(f"- match lines moved to the name's line: {sum(r['moved_lines'] for r in recs)}; "
              f"files whose shown < matches: {sum(r['truncated_files'] for r in recs)}")
    if a.detail:
        for r in recs:
            if not (r["fp"] or r["fn"] or r["error"] or r["unmatched_hit"]):
                continue
            md.append(f"\n### {r['spec']} ({r['lang']}, {r['ndefs']} defs) as `{r['peer_sym']}` -> {r['resolved']}: "
                      f"oracle {r['oracle']}, attributed {r['attributed']}, tp {r['tp']}, cannot_tell {r['cannot']}")
            if r["error"]:
                md.append(f"- ERROR {r['error']}")
            for tag, items in (("FP", r["fp"]), ("FN", r["fn"]), ("FN, graph-linked, unmatched", r["unmatched_hit"])):
                for p, ln in items:
                    md.append(f"- {tag} {p}:{ln}: {score.source_line(r['corpus'], p, ln)}")
    text = "\n".join(md) + "\n"
    print(text)
    if a.md:
        open(a.md, "w").write(text)
    if a.out:
        for r in recs:
            r.pop("corpus", None)
        json.dump({"jouet": a.jouet, "version": version, "table": dict(table), "targets": recs},
                  open(a.out, "w"), indent=1, default=sorted)


if __name__ == "__main__":
    main()
