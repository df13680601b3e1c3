#!/usr/bin/env python3
"""Call-site oracle for Go, from go/types (benchmark tooling, not part of scout).

    python3 bench/callers/oracle_go.py CORPUS TARGETS.json --out CACHE.json [--force]
    python3 bench/callers/oracle_go.py --defs CORPUS      (definitions, JSON on stdout)

oracle_go.go (beside this file) is built into /tmp/oracle-go with the
machine's Go (Debian's golang-go, 1.19: `apt-get install golang-go`) and run
once per corpus over the `*.go` files `rg --files` lists. It type-checks each
directory's package with its in-package tests, and its _test package, with
go/types: imports inside the tree by the tree's go.mod module paths, the
standard library from GOROOT's source, nothing else (third-party packages
are missing, so what they declare stays untyped). Its dump,
/tmp/oracle-go/NAME.go.json, is reused until --force.

A call site is a call whose callee name go/types binds to the target: the
method of the receiver's static type, so a call through an interface belongs
to the interface's method and a promoted method's call to the embedded
type's method. A method value or a function passed as a value is not a call.
The line is that of the callee's name. Calls of the target's name that
go/types cannot bind are counted per target as `unresolved`. go/types binds
statically, so nothing is ambiguous. Cache entries: {"sites": [[path, line]],
"ambiguous": [], "unresolved": N}.
"""
import os
import sys

# select.py lives beside this file: keep it from shadowing the standard select module
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]

import argparse  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402

WORK = "/tmp/oracle-go"
ENTRY_POINTS = ("Test", "Benchmark", "Example", "Fuzz")


def build():
    """Builds oracle_go.go into WORK (when stale); the binary's path."""
    src, exe = os.path.join(HERE, "oracle_go.go"), os.path.join(WORK, "oracle_go")
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        if not shutil.which("go"):
            sys.exit("oracle_go.py: no `go` on PATH (apt-get install golang-go)")
        os.makedirs(WORK, exist_ok=True)
        shutil.copy(src, os.path.join(WORK, "oracle_go.go"))
        env = dict(os.environ, GO111MODULE="off", GOFLAGS="")
        subprocess.run(["go", "build", "-o", exe, "oracle_go.go"], cwd=WORK, env=env, check=True)
    return exe


def dump(corpus, force=False):
    """The go/types dump of the corpus: defs, calls, unresolved (cached)."""
    os.makedirs(WORK, exist_ok=True)
    f = os.path.join(WORK, os.path.basename(corpus.rstrip("/")) + ".go.json")
    if os.path.exists(f) and not force:
        return json.load(open(f))
    exe = build()
    files = subprocess.run(["rg", "--files", "-t", "go"], cwd=corpus, capture_output=True, check=True).stdout
    t0 = time.time()
    subprocess.run([exe, corpus, f], input=files, cwd=WORK, check=True)
    print(f"go/types over the tree: {time.time() - t0:.0f}s", file=sys.stderr)
    return json.load(open(f))


def eligible(d):
    """Functions and methods with a body, not init or main, not a test file's entry points
    (Test*, Benchmark*, Example*, Fuzz*: the test runner calls them)."""
    if d["kind"] == "function" and d["name"] in ("init", "main"):
        return False
    if d["test"] and d["kind"] == "function" and d["name"].startswith(ENTRY_POINTS):
        return False
    return not d["qualname"].startswith("?.")


def all_defs(corpus, force=False):
    return [dict(d, eligible=eligible(d)) for d in dump(corpus, force)["defs"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", nargs="?")
    ap.add_argument("targets", nargs="?")
    ap.add_argument("--out")
    ap.add_argument("--defs", metavar="CORPUS")
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args()
    if a.defs:
        json.dump(all_defs(os.path.abspath(a.defs), a.force), sys.stdout)
        return
    corpus = os.path.abspath(a.corpus)
    targets = [t for t in json.load(open(a.targets)) if t["lang"] == "go"]
    old = json.load(open(a.out)) if os.path.exists(a.out) and not a.force else {}
    cache = old.get("targets", {})
    todo = [t for t in targets if t["spec"] not in cache]
    d = dump(corpus, a.force)
    if todo:
        by_key, unres = {}, {}
        for key, path, line in d["calls"]:
            by_key.setdefault(key, set()).add((path, line))
        for name, path, line in d["unresolved"]:
            unres[name] = unres.get(name, 0) + 1
        for t in todo:
            sites = by_key.get(t["key"], set())
            u = unres.get(t["name"], 0)
            cache[t["spec"]] = {"sites": sorted(sites), "ambiguous": [], "unresolved": u}
            print(f"{t['spec']}: {len(sites)} sites, {u} unresolved calls of the name", file=sys.stderr)
    json.dump({"tool": d["tool"], "corpus": corpus, "errors": d["errors"], "missing_imports": d["missing_imports"],
               "calls_total": len(d["calls"]), "unresolved_total": len(d["unresolved"]), "targets": cache},
              open(a.out, "w"), indent=1)


if __name__ == "__main__":
    main()
