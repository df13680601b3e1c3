#!/usr/bin/env python3
"""Call-site oracle for Python, from jedi (benchmark tooling, not part of scout).

    python3 bench/callers/oracle_py.py CORPUS TARGETS.json --out CACHE.json
        [--env /tmp/oracle-py] [--force]

TARGETS.json: a list of targets (see README.md: lang, path, name, qualname,
kind, line, spec). For every target whose `lang` is "py", every syntactic
call whose callee is spelled with the target's name (`f(...)`,
`obj.f(...)`, `@obj.f(...)`, `Cls(...)`) in any `*.py` file of the corpus
(`rg --files`, so .gitignore applies) is confirmed with
`Script.goto(follow_imports=True)` on the name: kept when goto lands on the
target (or on an `@overload` stub of the same qualified name in the same
file), marked ambiguous when goto lands on the target and something else,
counted as unresolved when goto finds nothing. Candidates come from the
syntax tree, not from `get_references`, so neither its merging of
same-named methods nor its 30-file limit applies. A function passed as a
value is not a call and is never a candidate.

CACHE.json maps each target's spec to {"sites": [[path, line], ...],
"ambiguous": [...], "unresolved": N, "candidates": N}; entries already in
it are reused unless --force. Lines are 1-based, the line of the callee's
name.
"""
import os
import sys

# select.py lives beside this file: keep it from shadowing the standard select module
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse  # noqa: E402
import ast  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402


def py_files(corpus):
    out = subprocess.run(["rg", "--files", "-t", "py"], cwd=corpus, capture_output=True, check=True).stdout
    return sorted(p[2:] if p.startswith("./") else p for p in out.decode().splitlines())


class Trees:
    def __init__(self, corpus):
        self.corpus = corpus
        self.cache = {}

    def get(self, rel):
        if rel not in self.cache:
            try:
                src = open(os.path.join(self.corpus, rel), encoding="utf-8", errors="replace").read()
                self.cache[rel] = (src, ast.parse(src))
            except (SyntaxError, ValueError):
                self.cache[rel] = (None, None)
        return self.cache[rel]


def calls_named(tree, name):
    """(line, col) of the callee name of every Call spelled with `name`."""
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id == name:
            out.append((f.lineno, f.col_offset))
        elif isinstance(f, ast.Attribute) and f.attr == name:
            # the attribute name ends the node
            out.append((f.end_lineno, f.end_col_offset - len(name)))
    return sorted(set(out))


def overload_lines(tree, qualname):
    """Lines of the names of every def with this qualified name (overload stubs included)."""
    lines = []

    def visit(body, prefix):
        for n in body:
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                q = prefix + n.name
                if q == qualname:
                    deco = [ast.unparse(d) for d in n.decorator_list]
                    lines.append((name_line(n), any(d.endswith("overload") for d in deco)))
            elif isinstance(n, ast.ClassDef):
                if prefix + n.name == qualname:
                    lines.append((n.lineno, False))
                visit(n.body, prefix + n.name + ".")
            elif isinstance(n, (ast.If, ast.Try)):
                visit(n.body, prefix)
                visit(getattr(n, "orelse", []), prefix)
                for h in getattr(n, "handlers", []):
                    visit(h.body, prefix)
    visit(tree.body, "")
    return lines


def name_line(n):
    # def/class name is on the `def` line (decorators come before it)
    return n.lineno


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("targets")
    ap.add_argument("--out", required=True)
    ap.add_argument("--env", default="/tmp/oracle-py", help="virtualenv with the project's runtime dependencies")
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args()
    import jedi

    corpus = os.path.abspath(a.corpus)
    targets = [t for t in json.load(open(a.targets)) if t["lang"] == "py"]
    cache = {}
    if os.path.exists(a.out) and not a.force:
        cache = json.load(open(a.out)).get("targets", {})
    sys_path = [os.path.join(corpus, "src")] if os.path.isdir(os.path.join(corpus, "src")) else []
    project = jedi.Project(corpus, environment_path=a.env, added_sys_path=sys_path, smart_sys_path=True)
    files = py_files(corpus)
    trees = Trees(corpus)

    def script(rel):
        # a fresh Script per goto: reusing one Script, later gotos on pytest-fixture receivers
        # come back empty (jedi 0.20.0)
        src, _ = trees.get(rel)
        return jedi.Script(src, path=os.path.join(corpus, rel), project=project)

    todo = [t for t in targets if t["spec"] not in cache]
    t0 = time.time()
    for i, t in enumerate(todo):
        tsrc, ttree = trees.get(t["path"])
        accept = {t["line"]}
        for ln, is_overload in overload_lines(ttree, t["qualname"]):
            if is_overload:
                accept.add(ln)
        target_file = os.path.join(corpus, t["path"])
        sites, amb, unresolved, cand = [], [], 0, 0
        for rel in files:
            src, tree = trees.get(rel)
            if tree is None or t["name"] not in src:
                continue
            for line, col in calls_named(tree, t["name"]):
                cand += 1
                try:
                    names = script(rel).goto(line, col, follow_imports=True)
                except Exception:
                    names = []
                if not names:
                    unresolved += 1
                    continue
                hit = [n for n in names if n.module_path and str(n.module_path) == target_file and n.line in accept]
                if hit and len(hit) == len(names):
                    sites.append([rel, line])
                elif hit:
                    amb.append([rel, line])
        cache[t["spec"]] = {"sites": sorted(set(map(tuple, sites))), "ambiguous": sorted(set(map(tuple, amb))),
                            "unresolved": unresolved, "candidates": cand}
        print(f"[{i + 1}/{len(todo)}] {t['spec']}: {len(cache[t['spec']]['sites'])} sites, "
              f"{len(amb)} ambiguous, {unresolved}/{cand} unresolved ({time.time() - t0:.0f}s)", file=sys.stderr)
    json.dump({"tool": f"jedi {jedi.__version__}", "corpus": corpus, "targets": cache}, open(a.out, "w"), indent=1)


if __name__ == "__main__":
    main()
