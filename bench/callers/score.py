#!/usr/bin/env python3
"""Scores `scout search --callers-of` against the call-site oracles.

    python3 bench/callers/score.py CORPUS [CORPUS...] [--scout PATH]
        [--targets FILE]... [--detail] [--out FILE.json] [--timeout 60]
        [--proven-only]

For each corpus, the targets come from /tmp/callers-oracle/NAME.targets.json
(select.py's default --out; or --targets, once per corpus, in order) and the
oracle's sites from /tmp/callers-oracle/NAME-LANG.json (select.py filled it;
run the oracle script to refresh). Per target, with cwd = the corpus root:

    scout search --callers-of SPEC --json --budget-tokens 0 -m 100000 --again

(with --proven-only, that flag too: the calls attributed by a name alone
are left out). attributed = every results[].path with each of its results[].lines[].line;
cannot_tell / elsewhere = the (path, line) entries of scope.cannot_tell /
scope.elsewhere. Over (path, line) pairs, summed over the targets of a group:
  precision   attributed ∩ oracle / attributed (oracle-ambiguous sites left out)
  recall      attributed ∩ oracle / oracle (recall_mean: the mean of the targets' recalls)
  cannot_tell cannot_tell ∩ oracle / oracle
  coverage    (attributed ∩ oracle + cannot_tell ∩ oracle) / oracle
  elsewhere   elsewhere ∩ oracle / oracle (real calls scout filed under another definition)
  scout/site  (attributed + cannot_tell pairs) / oracle sites, median over targets
  rg/site     lines of `rg -n -w NAME` / oracle sites, median over targets
  p50/p90 ms  wall time of one scout call
Groups: per language, split by whether the name has >= 2 definitions in the
tree ("multi") or one ("unique"), and all together; then select.py's hard
strata (base, factory, nested) of that language, where it has them. Exit 2 when scout's JSON
has no `scope` (the feature is not built).
"""
import os
import sys

# select.py lives beside this file: keep it from shadowing the standard select module
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]
sys.path.insert(0, os.path.dirname(HERE))  # bench/, for benchlib

import argparse  # noqa: E402
import atexit  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

import benchlib  # noqa: E402

LANG = {"py": "Python", "ts": "TypeScript", "c": "C", "java": "Java", "go": "Go"}


def strip_dot(p):
    return p[2:] if p.startswith("./") else p


def pairs(entries):
    out = set()
    for e in entries or []:
        if isinstance(e, dict) and e.get("path") is not None and e.get("line") is not None:
            out.add((strip_dot(e["path"]), int(e["line"])))
    return out


def source_line(corpus, path, line, cache={}):
    if path not in cache:
        try:
            cache[path] = open(os.path.join(corpus, path), encoding="utf-8", errors="replace").read().splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[line - 1].strip()[:160] if 0 < line <= len(lines) else "?"


def rg_lines(corpus, name, timeout):
    r = benchlib.run(["rg", "-c", "-w", "--no-filename", "-e", name, "."], corpus, timeout=timeout)
    return sum(int(x) for x in r.out.decode().split() if x.isdigit())


def score_one(corpus, t, oracle, scout, env, timeout, proven_only=False):
    spec = t["spec"]
    argv = [scout, "search", "--callers-of", spec, "--json", "--budget-tokens", "0", "-m", "100000", "--again"]
    if proven_only:
        argv.append("--proven-only")
    r = benchlib.run(argv, corpus, env=env, timeout=timeout)
    rec = {"spec": spec, "lang": t["lang"], "name": t["name"], "kind": t["kind"], "ndefs": t["ndefs"],
           "stratum": t.get("stratum"), "secs": r.secs, "error": None}
    try:
        doc = json.loads(r.out)
    except ValueError:
        rec["error"] = f"exit {r.code}{' (timeout)' if r.timed_out else ''}: " + \
            (r.err.decode(errors="replace").strip().splitlines() or ["no JSON on stdout"])[-1][:200]
        doc = None
    if doc is not None and "scope" not in doc:
        print(f"score.py: scout's --json for {spec} has no `scope` object: is --callers-of built? "
              f"({' '.join(argv)} in {corpus})", file=sys.stderr)
        sys.exit(2)
    attributed, cannot, elsewhere = set(), set(), set()
    if doc:
        for res in doc.get("results", []):
            p = strip_dot(res["path"])
            attributed |= {(p, int(ln["line"])) for ln in res.get("lines", [])}
        scope = doc["scope"] or {}
        cannot, elsewhere = pairs(scope.get("cannot_tell")), pairs(scope.get("elsewhere"))
    sites = {(p, ln) for p, ln in oracle["sites"]}
    amb = {(p, ln) for p, ln in oracle.get("ambiguous", [])} - sites
    rec.update(oracle=len(sites), attributed=len(attributed), tp=len(attributed & sites),
               fp=sorted(attributed - sites - amb), fn=sorted(sites - attributed - cannot),
               cannot_hit=len((cannot - attributed) & sites), cannot=len(cannot),
               elsewhere_hit=sorted(elsewhere & sites),
               rg=rg_lines(corpus, t["name"], timeout))
    rec["scout_pairs"] = len(attributed | cannot)
    rec["fp_n"] = len(rec["fp"])
    return rec


def summary(recs):
    ok = [r for r in recs if not r["error"]]
    o = sum(r["oracle"] for r in ok)
    tp = sum(r["tp"] for r in ok)
    fp = sum(r["fp_n"] for r in ok)
    ct = sum(r["cannot_hit"] for r in ok)
    ew = sum(len(r["elsewhere_hit"]) for r in ok)
    ms = [r["secs"] * 1000 for r in recs]
    pct = (lambda a, b: f"{100.0 * a / b:.1f}%" if b else "-")
    per = (lambda key: benchlib.median([r[key] / r["oracle"] for r in ok if r["oracle"]]))
    med_s, med_rg = per("scout_pairs"), per("rg")
    return {"targets": len(recs), "errors": len(recs) - len(ok), "oracle_sites": o,
            "precision": pct(tp, tp + fp), "recall": pct(tp, o),
            "recall_mean": pct(sum(r["tp"] / r["oracle"] for r in ok if r["oracle"]), sum(1 for r in ok if r["oracle"])), "cannot_tell": pct(ct, o),
            "coverage": pct(tp + ct, o), "elsewhere": pct(ew, o),
            "scout_per_site": f"{med_s:.2f}" if med_s is not None else "-",
            "rg_per_site": f"{med_rg:.2f}" if med_rg is not None else "-",
            "p50_ms": f"{benchlib.percentile(ms, 50):.0f}" if ms else "-",
            "p90_ms": f"{benchlib.percentile(ms, 90):.0f}" if ms else "-"}


COLS = ["targets", "errors", "oracle_sites", "precision", "recall", "recall_mean", "cannot_tell", "coverage", "elsewhere",
        "scout_per_site", "rg_per_site", "p50_ms", "p90_ms"]


def groups(recs):
    """[(name, records)]: per language, names defined >= 2 times, unique
    names and all; then the same over every language."""
    out = []
    for lang in [x for x in LANG if any(r["lang"] == x for r in recs)]:
        lr = [r for r in recs if r["lang"] == lang]
        out.append((f"{LANG[lang]} multi-def", [r for r in lr if r["ndefs"] >= 2]))
        out.append((f"{LANG[lang]} unique", [r for r in lr if r["ndefs"] < 2]))
        out.append((f"{LANG[lang]} all", lr))
        # select.py's hard cases (step 5), when the targets have them
        for stratum in ("base", "factory", "nested"):
            out.append((f"{LANG[lang]} {stratum}", [r for r in lr if r.get("stratum") == stratum]))
    out.append(("all multi-def", [r for r in recs if r["ndefs"] >= 2]))
    out.append(("all unique", [r for r in recs if r["ndefs"] < 2]))
    out.append(("all", recs))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="+")
    ap.add_argument("--scout")
    ap.add_argument("--targets", action="append", default=[])
    ap.add_argument("--detail", action="store_true")
    ap.add_argument("--proven-only", action="store_true",
                    help="score only the calls the graph proves (scout's --proven-only)")
    ap.add_argument("--out")
    ap.add_argument("--timeout", type=float, default=60.0)
    a = ap.parse_args()
    scout = benchlib.find_scout(a.scout)
    state = tempfile.mkdtemp(prefix="scout-callers-")
    atexit.register(shutil.rmtree, state, True)
    env = benchlib.scout_env(state)
    recs = []
    for i, c in enumerate(a.corpora):
        corpus = os.path.abspath(c)
        name = os.path.basename(corpus.rstrip("/"))
        tfile = a.targets[i] if i < len(a.targets) else f"/tmp/callers-oracle/{name}.targets.json"
        targets = json.load(open(tfile))
        lang = targets[0]["lang"]
        ofile = f"/tmp/callers-oracle/{name}-{lang}.json"
        oracle = json.load(open(ofile))["targets"]
        for t in targets:
            if t["spec"] not in oracle:
                sys.exit(f"score.py: {t['spec']} is not in {ofile}: run the oracle on {tfile}")
            r = score_one(corpus, t, oracle[t["spec"]], scout, env, a.timeout, a.proven_only)
            r["corpus"] = corpus
            recs.append(r)
            print(f"{t['spec']}: oracle {r['oracle']} tp {r['tp']} fp {r['fp_n']} fn {len(r['fn'])} "
                  f"cannot {r['cannot_hit']} {r['secs'] * 1000:.0f}ms{' ERROR ' + r['error'] if r['error'] else ''}",
                  file=sys.stderr)
    table = [(g, summary(rs)) for g, rs in groups(recs) if rs]
    print(f"scout: {scout}\n")
    print("| group | " + " | ".join(COLS) + " |")
    print("|---|" + "---:|" * len(COLS))
    for g, s in table:
        print(f"| {g} | " + " | ".join(str(s[k]) for k in COLS) + " |")
    if a.detail:
        for r in recs:
            if not (r["fp"] or r["fn"] or r["error"] or r["elsewhere_hit"]):
                continue
            print(f"\n### {r['spec']} ({r['lang']}, {r['ndefs']} defs): oracle {r['oracle']}, "
                  f"attributed {r['attributed']}, tp {r['tp']}, cannot_tell {r['cannot']}")
            if r["error"]:
                print(f"- ERROR {r['error']}")
            for tag, items in (("FP", r["fp"]), ("FN", r["fn"]), ("FN, filed elsewhere", r["elsewhere_hit"])):
                for p, ln in items:
                    print(f"- {tag} {p}:{ln}: {source_line(r['corpus'], p, ln)}")
    if a.out:
        json.dump({"scout": scout, "table": dict(table), "targets": recs}, open(a.out, "w"), indent=1)


if __name__ == "__main__":
    main()
