#!/usr/bin/env python3
"""Seeded choice of the target symbols for the --callers-of benchmark.

    python3 bench/callers/select.py CORPUS --lang py|ts|c|java|go --out TARGETS.json
        [--seed 1] [--n 24] [--cache ORACLE_CACHE.json] [--no-special]

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
5. The hard cases, unless --no-special: three more strata, each with the
   same quota and walked the same way, without the targets already taken:
   "base", methods of a class that another class in the tree extends (by
   name; Go: methods of a type embedded in some struct); "factory", methods
   of a class that some function returns (py: its return annotation, or
   `return cls(...)`/`return C(...)`; ts: a declared return type, through
   Promise<...>; go: the first of several results); "nested" (py, ts),
   functions nested in a named function or method, not dunders or
   `test_*`, and (ts) not inside a callback, as `PATH#outer.inner`.
   Each target records its `stratum`.
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
SPECIAL = ("base", "factory", "nested")


def py_defs(corpus):
    files = subprocess.run(["rg", "--files", "-t", "py"], cwd=corpus, capture_output=True, check=True).stdout
    out = []
    bases, returned = set(), set()  # class names used as a base; class names functions return

    def last(expr):
        text = ast.unparse(expr).strip("'\"")
        for wrap in ("Optional[", "typing.Optional[", "t.Optional["):
            if text.startswith(wrap):
                text = text[len(wrap):].rstrip("]")
        return text.split("|")[0].strip().split("[")[0].split(".")[-1]

    for rel in sorted(files.decode().splitlines()):
        rel = rel[2:] if rel.startswith("./") else rel
        try:
            tree = ast.parse(open(os.path.join(corpus, rel), encoding="utf-8", errors="replace").read())
        except (SyntaxError, ValueError):
            continue

        def visit(body, cls, outer):
            """cls: the class whose methods `body` holds; outer: the qualified
            name of the function `body` is nested in."""
            for n in body:
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    if any(ast.unparse(d).endswith("overload") for d in n.decorator_list):
                        continue  # a typing stub of the def that follows, not a definition of its own
                    kind = "method" if cls else "function"
                    plain = not (n.name.startswith("__") and n.name.endswith("__")) and not n.name.startswith("test_")
                    qual = f"{outer}.{n.name}" if outer else (f"{cls}.{n.name}" if cls else n.name)
                    if n.returns is not None:
                        returned.add(last(n.returns))
                    for r in ast.walk(n):
                        if isinstance(r, ast.Return) and isinstance(r.value, ast.Call):
                            f = r.value.func
                            if isinstance(f, ast.Name) and f.id == "cls" and cls:
                                returned.add(cls)
                            elif isinstance(f, (ast.Name, ast.Attribute)):
                                returned.add(last(f))
                    hidden = bool(outer) and outer.startswith("\0")  # in a nested class
                    out.append({"path": rel, "name": n.name, "qualname": qual, "kind": kind, "line": n.lineno,
                                "eligible": plain and not outer, "nested": bool(outer) and plain and not hidden,
                                "cls": cls})
                    visit(n.body, None, qual)
                elif isinstance(n, ast.ClassDef):
                    out.append({"path": rel, "name": n.name, "qualname": n.name, "kind": "class",
                                "line": n.lineno, "eligible": False})
                    bases.update(last(b) for b in n.bases)
                    # a class in a class or a function: its methods are not sampled
                    visit(n.body, None if (cls or outer) else n.name, "\0" if (cls or outer) else None)
                elif isinstance(n, (ast.If, ast.Try, ast.With)):
                    visit(n.body, cls, outer)
                    visit(getattr(n, "orelse", []), cls, outer)
                    for h in getattr(n, "handlers", []):
                        visit(h.body, cls, outer)
        visit(tree.body, None, None)
    for d in out:
        d["base"], d["factory"] = d.get("cls") in bases, d.get("cls") in returned
        d.pop("cls", None)
    return out


def tool_defs(corpus, lang):
    cmd = {"ts": ["node", os.path.join(HERE, "oracle_ts.mjs"), "--defs", corpus],
           "c": [sys.executable, os.path.join(HERE, "oracle_c.py"), "--defs", corpus],
           "java": [sys.executable, os.path.join(HERE, "oracle_java.py"), "--defs", corpus],
           "go": [sys.executable, os.path.join(HERE, "oracle_go.py"), "--defs", corpus]}[lang]
    return json.loads(subprocess.run(cmd, capture_output=True, check=True).stdout)


def run_oracle(corpus, lang, targets, cache):
    tmp = cache + ".candidates.json"
    json.dump(targets, open(tmp, "w"), indent=1)
    cmd = {"py": [sys.executable, os.path.join(HERE, "oracle_py.py")],
           "ts": ["node", os.path.join(HERE, "oracle_ts.mjs")],
           "c": [sys.executable, os.path.join(HERE, "oracle_c.py")],
           "java": [sys.executable, os.path.join(HERE, "oracle_java.py")],
           "go": [sys.executable, os.path.join(HERE, "oracle_go.py")]}[lang]
    subprocess.run(cmd + [corpus, tmp, "--out", cache], check=True)
    return json.load(open(cache))["targets"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--lang", required=True, choices=["py", "ts", "c", "java", "go"])
    ap.add_argument("--out", help="default: /tmp/callers-oracle/NAME.targets.json")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--n", type=int, default=24)
    ap.add_argument("--no-special", dest="special", action="store_false",
                    help="only the strata of steps 1-4 (the rule before the hard cases)")
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
    special = collections.defaultdict(list)
    for d in defs:
        if not (d["eligible"] or d.get("nested")):
            continue
        d = dict(d, lang=a.lang, ndefs=count[d["name"]])
        same = per_file[(d["path"], d["qualname"])] > 1
        if same and a.lang == "java":
            overloaded += 1  # an overload set: scout exits 2 on PATH#Class.method, so not sampled
            continue
        flags = {k: d.pop(k, False) for k in SPECIAL}
        for k in ("body", "nesting", "tkind", "test", "recv"):
            d.pop(k, None)
        d["spec"] = f"{d['path']}:{d['line']}#{d['qualname']}" if same else f"{d['path']}#{d['qualname']}"
        for k in SPECIAL:
            if flags[k] and (d["eligible"] or k == "nested"):
                special[k].append({x: v for x, v in d.items() if x != "eligible"})
        if not d.pop("eligible"):
            continue
        group = "multi" if d["ndefs"] >= 2 else "unique"
        if a.lang != "c":
            group += "/" + ("method" if d["kind"] == "method" else "function")
        strata[group].append(d)
    if overloaded:
        print(f"{overloaded} eligible definitions left out: their name is overloaded in their class", file=sys.stderr)
    names = sorted(strata)
    quota = a.n // len(names)
    chosen = []

    def take(group, cands):
        cands = sorted(cands, key=lambda d: (d["path"], d["line"]))
        random.Random(a.seed).shuffle(cands)
        got, pos = [], 0
        while len(got) < quota and pos < len(cands):
            batch = cands[pos:pos + 2 * (quota - len(got))]
            pos += len(batch)
            res = run_oracle(corpus, a.lang, batch, cache)
            got += [dict(d, stratum=group) for d in batch if res.get(d["spec"], {}).get("sites")][:quota - len(got)]
        print(f"{group}: {len(cands)} eligible, {pos} tried, {len(got)} taken", file=sys.stderr)
        return got

    for g in names:
        chosen += take(g, strata[g])
    # The hard cases (step 5): methods of a class another extends (Go: a type embedded in a
    # struct), methods of a class some function returns (Go: first of several results),
    # functions nested in a function; each a stratum of its own, after the others, without
    # the targets already taken.
    if a.special:
        for g in SPECIAL:
            taken = {d["spec"] for d in chosen}
            chosen += take(g, [d for d in special[g] if d["spec"] not in taken])
    json.dump(chosen, open(a.out, "w"), indent=1)
    print(f"{len(chosen)} targets -> {a.out} (oracle cache {cache})", file=sys.stderr)


if __name__ == "__main__":
    main()
