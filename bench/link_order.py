#!/usr/bin/env python3
"""The symbol ordering file install.sh links the static scout with (#35).

    python3 bench/link_order.py BINARY TREE... [--queries 10] [--seed 7]
        [--out link/search.order]

A search runs a few hundred of the binary's functions, scattered over some
8 MB of code; each page of code it touches is a page fault. lld's
`--symbol-ordering-file` lays the functions it names out first, in that
order, so a search touches fewer pages. This script finds them: it runs
`scout search` for queries derived from each TREE (as bench.py derives
them: identifiers, one regex, one -i), warm, under `valgrind
--tool=callgrind --demangle=no`, and writes every function of BINARY the
profiles name, in the order first seen, one mangled name a line.

BINARY should be the static build install.sh makes (the names carry
hashes that change with rustc, dependencies and flags; a stale name is
skipped by the linker, so a stale file costs only its gain). Regenerate
it after a rustc or Cargo.lock update, then measure with latency.py.
Needs valgrind (apt-get install -y valgrind).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402


def functions(profile, binary_name):
    """The functions of the object named `binary_name` in one callgrind
    output, in the order the profile first names them."""
    objects, names, order = {}, {}, []
    current = None
    with open(profile, errors="replace") as f:
        for line in f:
            m = re.match(r"(c?ob)=\((\d+)\)(?: (.*))?", line)
            if m:
                if m[3]:
                    objects[m[2]] = m[3].strip()
                if m[1] == "ob":
                    current = objects.get(m[2])
                continue
            m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
            if not m:
                continue
            if m[3]:
                names[m[2]] = m[3].strip()
            if m[1] == "fn" and current and os.path.basename(current) == binary_name:
                name = names.get(m[2])
                if name:
                    # callgrind marks recursion levels with a 'N suffix.
                    order.append(name.split("'")[0])
    return order


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("trees", nargs="+")
    ap.add_argument("--queries", type=int, default=10)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default="link/search.order")
    args = ap.parse_args()
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed (apt-get install -y valgrind)")
    binary = os.path.abspath(args.binary)
    state = tempfile.mkdtemp(prefix="scout-link-order-")
    env = bl.scout_env(state)
    seen, order = set(), []
    runs = 0
    try:
        for tree in args.trees:
            tree = os.path.abspath(tree)
            for q in bl.derive_queries(tree, args.queries, args.seed, n_regex=1, n_icase=1):
                argv = [binary, "search"] + q.scout_flags() + [q.text, "."]
                # Warm first: the profile is of the search users repeat.
                subprocess.run(argv, cwd=tree, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
                out = os.path.join(state, "callgrind.%d" % runs)
                subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no",
                                "--callgrind-out-file=" + out] + argv,
                               cwd=tree, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
                runs += 1
                for name in functions(out, os.path.basename(binary)):
                    if name not in seen and not name.startswith("0x"):
                        seen.add(name)
                        order.append(name)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    with open(args.out, "w") as f:
        f.write("\n".join(order) + "\n")
    print("%d functions from %d profiles -> %s" % (len(order), runs, args.out))


if __name__ == "__main__":
    main()
