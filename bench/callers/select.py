#!/usr/bin/env python3
"""Seeded choice of the target symbols for the --callers-of benchmark.

    python3 bench/callers/select.py CORPUS --lang py|ts|c|java --out TARGETS.json
        [--seed 1] [--n 24] [--cache ORACLE_CACHE.json]

The rule (README.md, "Selection rule"):
1. Every definition of the language in the corpus is listed (py: ast;
   ts: the TypeScript compiler's parser, via oracle_ts.mjs --defs; c:
   libclang, via oracle_c.py --defs; java: javac, via oracle_java.py
   --defs). A name's *definition count* is how many definitions (functions,
   methods, classes; for C: function bodies; for Java: methods with a body
   and class/interface/enum/record declarations) carry it anywhere in the tree.
2. Eligible targets: py: module-level functions and class methods, not
   dunders, not `test_*`; ts: named functions (incl. `const f = () =>`),
   class methods, classes, components; not in `.d.ts`; c: function bodies
   under src/; java: classes and records, and methods with a body, of
   top-level or member (nested) types, not of local or anonymous classes,
   and not a method whose name is overloaded in its class (scout treats
   `PATH#Class.method` as ambiguous there).
3. Strata: names with definition count >= 2 ("multi") vs 1 ("unique"),
   crossed with function vs method for py and ts (classes and components
   count as functions); c has only the two. Each stratum gets n/strata.
4. Within a stratum, candidates are sorted by (path, line) and shuffled by
   random.Random(seed). Walking that order, the oracle is run on the next
   2*quota candidates still needed, and a candidate is taken when the
   oracle finds >= 1 call site; repeat until the quota is met or the
   stratum runs out.
The oracle's cache is shared with score.py, so its results are reused.
"""
import os
import sys

# select.py lives beside this file: keep it from shadowing the standard select module
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse  # noqa: E402
import ast  # noqa: E402
import collections  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import subprocess  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def py_defs(corpus):
    files = subprocess.run(["rg", "--files", "-t", "py"], cwd=corpus, capture_output=True, check=True).stdout
    out = []
    for rel in sorted(files.decode().splitlines()):
        rel = rel[2:] if rel.startswith("./") else rel
        try:
            tree = ast.parse(open(os.path.join(corpus, rel), encoding="utf-8", errors="replace").read())
        except (SyntaxError, ValueError):
            continue

        def visit(body, cls, nested):
            for n in body:
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    if any(ast.unparse(d).endswith("overload") for d in n.decorator_list):
                        continue  # a typing stub of the def that follows, not a definition of its own
                    kind = "method" if cls else "function"
                    ok = (not nested and not (n.name.startswith("__") and n.name.endswith("__"))
                          and not n.name.startswith("test_"))
                    out.append({"path": rel, "name": n.name, "qualname": f"{cls}.{n.name}" if cls else n.name,
                                "kind": kind, "line": n.lineno, "eligible": ok})
                    visit(n.body, None, True)
                elif isinstance(n, ast.ClassDef):
                    out.append({"path": rel, "name": n.name, "qualname": n.name, "kind": "class",
                                "line": n.lineno, "eligible": False})
                    visit(n.body, None if (cls or nested) else n.name, nested or bool(cls))
                elif isinstance(n, (ast.If, ast.Try, ast.With)):
                    visit(n.body, cls, nested)
                    visit(getattr(n, "orelse", []), cls, nested)
                    for h in getattr(n, "handlers", []):
                        visit(h.body, cls, nested)
        visit(tree.body, None, False)
    return out


def tool_defs(corpus, lang):
    cmd = {"ts": ["node", os.path.join(HERE, "oracle_ts.mjs"), "--defs", corpus],
           "c": [sys.executable, os.path.join(HERE, "oracle_c.py"), "--defs", corpus],
           "java": [sys.executable, os.path.join(HERE, "oracle_java.py"), "--defs", corpus]}[lang]
    return json.loads(subprocess.run(cmd, capture_output=True, check=True).stdout)


def run_oracle(corpus, lang, targets, cache):
    tmp = cache + ".candidates.json"
    json.dump(targets, open(tmp, "w"), indent=1)
    cmd = {"py": [sys.executable, os.path.join(HERE, "oracle_py.py")],
           "ts": ["node", os.path.join(HERE, "oracle_ts.mjs")],
           "c": [sys.executable, os.path.join(HERE, "oracle_c.py")],
           "java": [sys.executable, os.path.join(HERE, "oracle_java.py")]}[lang]
    subprocess.run(cmd + [corpus, tmp, "--out", cache], check=True)
    return json.load(open(cache))["targets"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--lang", required=True, choices=["py", "ts", "c", "java"])
    ap.add_argument("--out", help="default: /tmp/callers-oracle/NAME.targets.json")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--n", type=int, default=24)
    ap.add_argument("--cache", help="oracle cache (default: /tmp/callers-oracle/NAME-LANG.json)")
    a = ap.parse_args()
    corpus = os.path.abspath(a.corpus)
    cache = a.cache or f"/tmp/callers-oracle/{os.path.basename(corpus)}-{a.lang}.json"
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    a.out = a.out or f"/tmp/callers-oracle/{os.path.basename(corpus)}.targets.json"

    defs = py_defs(corpus) if a.lang == "py" else tool_defs(corpus, a.lang)
    # java: abstract and interface method declarations (no body) are not definitions of the name,
    # but they do make a name overloaded in its class
    count = collections.Counter(d["name"] for d in defs if d.get("body", True) or d["kind"] != "method")
    per_file = collections.Counter((d["path"], d["qualname"]) for d in defs)
    overloaded = 0
    strata = collections.defaultdict(list)
    for d in defs:
        if not d["eligible"]:
            continue
        d = dict(d, lang=a.lang, ndefs=count[d["name"]])
        same = per_file[(d["path"], d["qualname"])] > 1
        if same and a.lang == "java":
            overloaded += 1  # an overload set: scout exits 2 on PATH#Class.method, so not sampled
            continue
        for k in ("body", "nesting", "tkind"):
            d.pop(k, None)
        d["spec"] = f"{d['path']}:{d['line']}#{d['qualname']}" if same else f"{d['path']}#{d['qualname']}"
        d.pop("eligible")
        group = "multi" if d["ndefs"] >= 2 else "unique"
        if a.lang != "c":
            group += "/" + ("method" if d["kind"] == "method" else "function")
        strata[group].append(d)
    if overloaded:
        print(f"{overloaded} eligible definitions left out: their name is overloaded in their class", file=sys.stderr)
    names = sorted(strata)
    quota = a.n // len(names)
    chosen = []
    for g in names:
        cands = sorted(strata[g], key=lambda d: (d["path"], d["line"]))
        random.Random(a.seed).shuffle(cands)
        got, pos = [], 0
        while len(got) < quota and pos < len(cands):
            batch = cands[pos:pos + 2 * (quota - len(got))]
            pos += len(batch)
            res = run_oracle(corpus, a.lang, batch, cache)
            got += [d for d in batch if res.get(d["spec"], {}).get("sites")][:quota - len(got)]
        print(f"{g}: {len(strata[g])} eligible, {pos} tried, {len(got)} taken", file=sys.stderr)
        chosen += got
    json.dump(chosen, open(a.out, "w"), indent=1)
    print(f"{len(chosen)} targets -> {a.out} (oracle cache {cache})", file=sys.stderr)


if __name__ == "__main__":
    main()
