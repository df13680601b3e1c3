#!/usr/bin/env python3
"""Latency of `scout hook EVENT` per call, on payloads shaped as Claude
Code sends them, in a generated git work tree of 500 tracked files (so the
`unbudgeted-search` rule reads a real index and fires) with a session
memory already holding 300 files.

    python3 bench/hooks.py [--scout PATH] [--runs 200]

The cases run interleaved (one of each per round, 20 warm-up rounds, then
`--runs` rounds), one process per call (stdin from a file, stdout and
stderr to /dev/null), timed from spawn to exit; the script prints the
median and 90th percentile of that wall time, and the median CPU time
(user + system, from wait4), beside `/bin/true` spawned the same way (the
harness's own cost). Python 3 standard library only; git on PATH.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def find_scout(given):
    if given:
        return given
    return shutil.which("scout") or "/work/main/target/release/scout"


def make_tree(root):
    for i in range(500):
        d = os.path.join(root, "pkg%02d" % (i % 20))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "m%03d.py" % i), "w") as f:
            f.write("".join("def f%d_%d(x):\n    return x + %d\n" % (i, j, j) for j in range(60)))
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@b", GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@b")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, env=env)
    subprocess.run(["git", "add", "."], cwd=root, check=True, env=env)


def payload(root, event, tool, tool_input, response=None, call="toolu_01"):
    p = {
        "session_id": "bench-hooks",
        "transcript_path": "/tmp/bench-hooks.jsonl",
        "cwd": root,
        "permission_mode": "default",
        "hook_event_name": event,
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": call,
    }
    if response is not None:
        p["tool_response"] = response
    return p


def run_once(argv, stdin_path, env):
    """(wall ms, cpu ms) of one call: spawn to exit, and user + system time."""
    with open(stdin_path, "rb") as f:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = (time.perf_counter() - start) * 1000
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit("%s exited %d" % (argv, proc.returncode))
    return wall, (usage.ru_utime + usage.ru_stime) * 1000


def interleaved(cases, env, runs):
    """Runs every case once per round, `runs` rounds after 20 warm-up
    rounds, so load from other processes falls on all cases alike."""
    samples = {name: ([], []) for name, _, _ in cases}
    for i in range(runs + 20):
        for name, argv, stdin_path in cases:
            wall, cpu = run_once(argv, stdin_path, env)
            if i >= 20:
                samples[name][0].append(wall)
                samples[name][1].append(cpu)
    return samples


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scout")
    ap.add_argument("--runs", type=int, default=200)
    args = ap.parse_args()
    scout = find_scout(args.scout)
    work = tempfile.mkdtemp(prefix="scout-bench-hooks-")
    root = os.path.join(work, "tree")
    os.makedirs(root)
    make_tree(root)
    home = os.path.join(work, "home")
    env = {"PATH": os.environ["PATH"], "HOME": home, "XDG_STATE_HOME": os.path.join(home, "state"), "XDG_CONFIG_HOME": os.path.join(home, "config")}

    def write(name, p):
        path = os.path.join(work, name + ".json")
        with open(path, "w") as f:
            json.dump(p, f)
        return path

    def read_post(rel, lines):
        path = os.path.join(root, rel)
        return payload(root, "PostToolUse", "Read", {"file_path": path},
                       {"type": "text", "file": {"filePath": path, "content": "...", "numLines": lines, "startLine": 1, "totalLines": lines}})

    # A memory of 300 files, as after a long session.
    for i in range(300):
        rel = "pkg%02d/m%03d.py" % (i % 20, i)
        subprocess.run([scout, "hook", "PostToolUse"], input=json.dumps(read_post(rel, 120)).encode(), env=env, check=True)

    target = "pkg00/m000.py"
    cases = [
        ("Read, pre (reread warns)", "PreToolUse", payload(root, "PreToolUse", "Read", {"file_path": os.path.join(root, target)})),
        ("Read, post (recorded)", "PostToolUse", read_post(target, 120)),
        ("Bash rg, pre (unbudgeted warns)", "PreToolUse", payload(root, "PreToolUse", "Bash", {"command": "rg -n 'def f1_'"})),
        ("Bash cat, pre (reread warns)", "PreToolUse", payload(root, "PreToolUse", "Bash", {"command": "cat " + target})),
        ("Bash sed -n, post (recorded)", "PostToolUse", payload(root, "PostToolUse", "Bash", {"command": "sed -n '1,40p' " + target}, {"stdout": "", "stderr": "", "interrupted": False})),
        ("Bash other, pre", "PreToolUse", payload(root, "PreToolUse", "Bash", {"command": "cargo test"})),
        ("Grep content, pre (unbudgeted warns)", "PreToolUse", payload(root, "PreToolUse", "Grep", {"pattern": "def f1_", "output_mode": "content"})),
    ]
    runnable = [("/bin/true (spawn cost)", ["/bin/true"], write("true", {}))]
    for i, (name, event, p) in enumerate(cases):
        runnable.append((name, [scout, "hook", event], write("case%d" % i, p)))
    answers = {}
    for name, argv, stdin_path in runnable:
        with open(stdin_path, "rb") as f:
            out = subprocess.run(argv, stdin=f, capture_output=True, env=env).stdout
        answers[name] = "warns" if b"additionalContext" in out else "-"
    samples = interleaved(runnable, env, args.runs)
    print("scout: %s; %d interleaved runs per case" % (scout, args.runs))
    print("%-38s %11s %9s %11s  %s" % ("case", "wall median", "wall p90", "cpu median", "answer"))
    for name, _, _ in runnable:
        wall, cpu = (sorted(x) for x in samples[name])
        print("%-38s %9.2fms %7.2fms %9.2fms  %s" % (name, statistics.median(wall), wall[int(len(wall) * 0.9)], statistics.median(cpu), answers[name]))
    log = os.path.join(home, "state", "scout", "hooks.log")
    if os.path.exists(log):
        lines = open(log).read().splitlines()
        print("%d hook failures logged, the first:\n%s" % (len(lines), "\n".join(lines[:5])), file=sys.stderr)
        sys.exit(1)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
