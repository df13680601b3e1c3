#!/usr/bin/env python3
"""Structural search side by side: scout's counts and time against ast-grep's.

    python3 bench/structural.py [--scout PATH] [--ast-grep PATH] [--runs 5]
        [--only NAME]... [--out FILE] [CORPUS=DIR]...

For each corpus (a language and its patterns, below; DIR overrides where a
corpus lives), every pattern is run by both tools with cwd = DIR:

- counts: `scout search --structural --lang L -l --budget-tokens 0 --json
  PATTERN` against `ast-grep run -p PATTERN -l L --json=stream`; the total
  matches, the files, and every file's match count must be equal (scout's
  `matches` per result; one ast-grep record per match). Differences are
  printed per file.
- time: the default page (`scout search --structural --lang L PATTERN`,
  what an agent runs) against `ast-grep run -p PATTERN -l L --json`, each
  to a pipe that is read and dropped, interleaved, --runs times; the
  medians and their ratio (scout / ast-grep; the issue asks <= 1.5).

Every scout run gets a cleared agent session and private cache/state
directories (benchlib's environment). Prints one line per pattern and a
summary per corpus; exit status 1 when any count differs.
"""

import argparse
import atexit
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402


def stdlib_dir():
    import sysconfig

    return sysconfig.get_paths()["stdlib"]


# name: (default dir, scout --lang, ast-grep -l, patterns)
CORPORA = {
    "ripgrep": (
        "/work/corpora/ripgrep",
        "rust",
        "rust",
        [
            "$X.unwrap()",
            "$X.expect($MSG)",
            "$X.clone()",
            "println!($$$)",
            "format!($$$A)",
            "Some($X)",
            "Ok(())",
            "Err($E)",
            "$X?",
            "impl $T for $U { $$$ }",
            "let $X = $Y;",
            "assert_eq!($A, $B)",
            "match $X { $$$ }",
            "&mut $X",
        ],
    ),
    "redis": (
        "/work/corpora/redis",
        "c",
        "c",
        [
            "malloc($N)",
            "zmalloc($N)",
            "zfree($P)",
            "return $X;",
            "if ($C) return $X;",
            "memcpy($A, $B, $C)",
            "sizeof($T)",
            "$A == NULL",
            "serverLog($$$)",
            "while ($C) $BODY",
            "break;",
            "$X->$Y = $Z",
        ],
    ),
    "etcd": (
        "/work/corpora/etcd",
        "go",
        "go",
        [
            "if err != nil { return $$$ }",
            "fmt.Sprintf($$$)",
            "fmt.Errorf($$$)",
            "defer $X.Close()",
            "$X, err := $Y",
            "go func() { $$$ }()",
            "t.Fatal($$$)",
            "context.Background()",
            "return nil, $E",
            "errors.New($M)",
            "for $K, $V := range $X { $$$ }",
            "len($X) == 0",
        ],
    ),
    "ts": (
        # node_modules ships JavaScript (and .d.ts declarations).
        "/work/corpora/ts",
        "js",
        "js",
        [
            "console.log($$$)",
            "new Error($M)",
            "$X === undefined",
            "typeof $X === $T",
            "Object.keys($X)",
            "export function $F($$$) { $$$ }",
            "throw $E",
            "JSON.parse($X)",
        ],
    ),
    "python": (
        None,
        "py",
        "py",
        [
            "except Exception: pass",
            "print($$$)",
            "isinstance($X, $T)",
            "raise $E($$$)",
            "raise $E from $C",
            "len($X) == 0",
            "self.$A = $B",
            "with open($$$) as $F: $$$",
            "@property",
            "return None",
        ],
    ),
}


def run(cmd, cwd, env=None):
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return proc, time.perf_counter() - start


def scout_counts(scout, cwd, env, lang, pattern):
    proc, _ = run(
        [scout, "search", "--structural", "--lang", lang, "-l", "--budget-tokens", "0", "--json", "-e", pattern],
        cwd,
        env,
    )
    if proc.returncode not in (0, 1):
        return None, proc.stderr.decode(errors="replace").strip()
    if proc.returncode == 1 and not proc.stdout.strip():
        return {}, None
    doc = json.loads(proc.stdout)
    return {r["path"]: r["matches"] for r in doc["results"]}, None


def ast_grep_counts(ast_grep, cwd, lang, pattern):
    proc, _ = run([ast_grep, "run", "-p", pattern, "-l", lang, "--json=stream"], cwd)
    if proc.returncode not in (0, 1):
        return None, proc.stderr.decode(errors="replace").strip()
    files = {}
    for line in proc.stdout.splitlines():
        if line.strip():
            path = json.loads(line)["file"]
            files[path] = files.get(path, 0) + 1
    return files, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scout", default=None)
    parser.add_argument("--ast-grep", dest="ast_grep", default="ast-grep")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--out", default=None)
    parser.add_argument("dirs", nargs="*", help="NAME=DIR overrides")
    args = parser.parse_args()
    scout = bl.find_scout(args.scout)
    overrides = dict(d.split("=", 1) for d in args.dirs)
    state = tempfile.mkdtemp(prefix="scout-structural-bench-")
    atexit.register(shutil.rmtree, state, True)
    env = bl.scout_env(state)
    lines = []

    def say(text):
        print(text, flush=True)
        lines.append(text)

    differ = 0
    all_ratios = []
    for name, (default, lang, sg_lang, patterns) in CORPORA.items():
        if args.only and name not in args.only:
            continue
        cwd = overrides.get(name) or default or stdlib_dir()
        say(f"## {name} ({cwd}), --lang {lang}")
        ratios = []
        for pattern in patterns:
            ours, err = scout_counts(scout, cwd, env, lang, pattern)
            theirs, err2 = ast_grep_counts(args.ast_grep, cwd, sg_lang, pattern)
            if ours is None:
                say(f"ERROR {pattern!r}: scout: {err}")
                differ += 1
                continue
            if theirs is None:
                # ast-grep refused a pattern scout compiled (a context it
                # does not try): no counts to compare.
                first = (err2 or "").splitlines()[-1:] or [""]
                say(f"NOSG   {pattern!r:40} matches {sum(ours.values()):6} / -  ast-grep: {first[0]}")
                differ += 1
                continue
            same = ours == theirs
            if not same:
                differ += 1
            scout_t, sg_t = [], []
            for _ in range(args.runs):
                _, t = run([scout, "search", "--structural", "--lang", lang, "-e", pattern], cwd, env)
                scout_t.append(t)
                _, t = run([args.ast_grep, "run", "-p", pattern, "-l", sg_lang, "--json"], cwd)
                sg_t.append(t)
            ms, mg = statistics.median(scout_t) * 1000, statistics.median(sg_t) * 1000
            ratio = ms / mg if mg else float("inf")
            ratios.append(ratio)
            say(
                f"{'same  ' if same else 'DIFFER'} {pattern!r:40} matches {sum(ours.values()):6} / {sum(theirs.values()):6}"
                f"  files {len(ours):5} / {len(theirs):5}  time {ms:7.1f} / {mg:7.1f} ms  x{ratio:.2f}"
            )
            if not same:
                for path in sorted(set(ours) | set(theirs))[:2000]:
                    if ours.get(path) != theirs.get(path):
                        say(f"    {path}: scout {ours.get(path, 0)} ast-grep {theirs.get(path, 0)}")
        if ratios:
            all_ratios.extend(ratios)
            say(
                f"# {name}: {len(ratios)} patterns, median ratio x{statistics.median(ratios):.2f}, max x{max(ratios):.2f}"
            )
    if all_ratios:
        say(
            f"# all: {len(all_ratios)} patterns, {differ} with different counts, median ratio x{statistics.median(all_ratios):.2f}, max x{max(all_ratios):.2f}"
        )
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
