#!/usr/bin/env python3
"""Peak memory of `scout search` against `rg -n` on a tree with a million
matches (docs/design.md: memory is O(files), never O(matches)).

    python3 bench/memory.py [--scout PATH] [--files 200] [--lines 5000]
        [--keep]

Generates FILES x LINES lines, each holding the word `needle`, in a temp
dir; measures peak RSS of `scout search needle DIR` (stdout to /dev/null,
and once more with --json) and of `rg -n needle DIR > /dev/null` by
polling /proc (VmHWM of the process, VmHWM of each child such as scout's
rg, and the largest sampled sum of RSS over the tree), and with
/usr/bin/time -v when installed (apt-get install -y time; it reports the
largest of a process and its children, not their sum); prints them and
the ratios; removes the temp dir unless --keep.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402


def make_tree(root, files, lines):
    body = b"".join(b"line %d of the haystack holds a needle and more hay\n" % i
                    for i in range(1, lines + 1))
    for f in range(files):
        d = os.path.join(root, "dir %02d" % (f % 10))  # a space in the path
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "file_%03d.txt" % f), "wb") as fh:
            fh.write(body)
    return files * lines, files * len(body)


def peak_time_v(argv, env, timeout):
    """Peak RSS KiB per /usr/bin/time -v: the largest of the process and
    its waited-for children (wait4 rusage), not their sum."""
    p = subprocess.run(["/usr/bin/time", "-v"] + argv, env=env,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=timeout)
    m = re.search(rb"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
    return int(m.group(1)) if m else None


def _status(pid):
    try:
        with open("/proc/%d/status" % pid, "rb") as fh:
            data = fh.read()
    except OSError:
        return None, None
    hwm = re.search(rb"VmHWM:\s+(\d+) kB", data)
    rss = re.search(rb"VmRSS:\s+(\d+) kB", data)
    return (int(hwm.group(1)) if hwm else None,
            int(rss.group(1)) if rss else 0)


def _children(pid):
    kids = []
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, tid), "rb") as fh:
                kids += [int(x) for x in fh.read().split()]
    except OSError:
        pass
    return kids


def peak_proc(argv, env, timeout):
    """Polls /proc every 2 ms: (own peak KiB, peak KiB of each child by
    pid, largest sampled sum of RSS over the tree KiB, seconds, exit)."""
    start = time.perf_counter()
    p = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    own, kids, tree = 0, {}, 0
    while p.poll() is None:
        hwm, rss = _status(p.pid)
        total = rss or 0
        own = max(own, hwm or 0)
        for c in _children(p.pid):
            chwm, crss = _status(c)
            kids[c] = max(kids.get(c, 0), chwm or 0)
            total += crss or 0
        tree = max(tree, total)
        if time.perf_counter() - start > timeout:
            p.kill()
        time.sleep(0.002)
    return own or None, kids, tree or None, time.perf_counter() - start, \
        p.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scout_pos", nargs="?", metavar="SCOUT")
    ap.add_argument("--scout")
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--lines", type=int, default=5000)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    scout = bl.find_scout(args.scout or args.scout_pos)
    how = "/proc VmHWM polling" + (" and /usr/bin/time -v" if os.access(
        "/usr/bin/time", os.X_OK) else " (no /usr/bin/time)")

    tmp = tempfile.mkdtemp(prefix="scout mem ")
    state = tempfile.mkdtemp(prefix="scout-mem-state-")
    try:
        root = os.path.join(tmp, "tree")
        n, size = make_tree(root, args.files, args.lines)
        env = bl.scout_env(state)
        runs = [("rg -n needle DIR", ["rg", "-n", "needle", root]),
                ("scout search needle DIR", [scout, "search", "needle", root]),
                ("scout search --json needle DIR",
                 [scout, "search", "--json", "needle", root])]
        print("tree: %d files x %d lines = %d matching lines, %.1f MB; "
              "measured with %s" % (args.files, args.lines, n,
                                    size / 1e6, how))
        res = {}
        for name, argv in runs:
            own, kids, tree, secs, code = peak_proc(argv, env, args.timeout)
            tv = (peak_time_v(argv, env, args.timeout)
                  if os.access("/usr/bin/time", os.X_OK) else None)
            res[name] = (own, tree)
            kid = ", children %s KiB" % "/".join(
                str(v) for v in kids.values()) if kids else ""
            print("%-31s own peak %s KiB%s; tree peak (sum) %s KiB; "
                  "time -v %s KiB; %.2fs exit %s" % (
                      name, own, kid, tree, tv, secs, code))
        rg_own = res["rg -n needle DIR"][0]
        for name in list(res)[1:]:
            own, tree = res[name]
            if rg_own and own:
                print("%s vs rg: own %.2fx, with its rg child %.2fx" % (
                    name, own / rg_own, (tree or own) / rg_own))
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print("kept %s" % tmp)
        shutil.rmtree(state, ignore_errors=True)


if __name__ == "__main__":
    main()
