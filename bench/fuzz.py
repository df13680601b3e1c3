#!/usr/bin/env python3
"""The long property-test campaign (#15): every property, round-robin,
PROPTEST_CASES at a time, until the time is up.

    python3 bench/fuzz.py [--minutes 60] [--cases 2000] [--release]
        [--bin PATH]... [--out FILE]

Without --bin it builds the library's test binary (`cargo test --no-run
--lib`, with --release if asked) and runs its properties: src/fuzz/
(every reader of outside bytes, the hook's payloads) and the in-module
ones (`request::fuzz`, `cli::parse::fuzz`, `views::tests::any_timeout`).
Each run is `BIN --exact NAME` with a fresh random seed (proptest's
default), so rounds explore different inputs. Prints, per property, the
runs, cases and seconds, and every failure with proptest's minimal input;
exits 1 if any property failed.
"""

import argparse
import json
import os
import subprocess
import sys
import time

# The properties of each test binary, by name prefix: the library's.
PROPERTIES = {
    "scout": ("fuzz::", "request::fuzz::", "cli::parse::fuzz::",
              "views::tests::any_timeout"),
}


def build(release):
    argv = ["cargo", "test", "--no-run", "--message-format=json",
            "--lib"]
    if release:
        argv.append("--release")
    out = subprocess.run(argv, stdout=subprocess.PIPE, check=True).stdout
    bins = []
    for line in out.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("reason") == "compiler-artifact" and msg.get("executable") \
                and msg.get("profile", {}).get("test"):
            bins.append(msg["executable"])
    return bins


def properties(binary):
    out = subprocess.run([binary, "--list", "--format", "terse"],
                         stdout=subprocess.PIPE, check=True, text=True).stdout
    names = [l.rsplit(": ", 1)[0] for l in out.splitlines() if l.endswith(": test")]
    target = os.path.basename(binary).rsplit("-", 1)[0]
    return [n for n in names if n.startswith(PROPERTIES.get(target, ()))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--cases", type=int, default=2000,
                    help="PROPTEST_CASES per run (default 2000)")
    ap.add_argument("--release", action="store_true")
    ap.add_argument("--bin", action="append", help="a test binary (repeatable)")
    ap.add_argument("--out", help="write the tallies as JSON here")
    args = ap.parse_args()
    bins = args.bin or build(args.release)
    work = [(b, n) for b in bins for n in properties(b)]
    if not work:
        sys.exit("no properties found in %s" % bins)
    print("# %d properties, %d cases a run, %.0f minutes" % (
        len(work), args.cases, args.minutes), file=sys.stderr, flush=True)
    env = dict(os.environ, PROPTEST_CASES=str(args.cases))
    tally = {n: {"runs": 0, "cases": 0, "secs": 0.0, "failures": []} for _, n in work}
    t0 = time.time()
    end = t0 + args.minutes * 60
    rounds = 0
    while time.time() < end:
        for binary, name in work:
            if time.time() >= end:
                break
            start = time.time()
            r = subprocess.run([binary, "--exact", name, "--test-threads", "1"],
                               env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True,
                               errors="replace")
            t = tally[name]
            t["runs"] += 1
            t["secs"] += time.time() - start
            if r.returncode == 0:
                t["cases"] += args.cases
            else:
                found = [l for l in r.stdout.splitlines()
                         if "minimal failing input" in l or "panicked" in l]
                t["failures"].append(found[:4] or r.stdout.splitlines()[-5:])
                print("FAIL %s: %s" % (name, " | ".join(t["failures"][-1])),
                      flush=True)
        rounds += 1
        print("# round %d done, %.0f s" % (rounds, time.time() - t0),
              file=sys.stderr, flush=True)
    total = sum(t["cases"] for t in tally.values())
    print("\n| property | runs | cases | seconds | failures |")
    print("|---|---|---|---|---|")
    for name, t in tally.items():
        print("| `%s` | %d | %d | %.0f | %d |" % (
            name, t["runs"], t["cases"], t["secs"], len(t["failures"])))
    print("\n%d cases in %.1f minutes over %d properties, %d rounds; %d failures"
          % (total, (time.time() - t0) / 60, len(work), rounds,
             sum(len(t["failures"]) for t in tally.values())))
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(tally, fh, indent=1)
    sys.exit(1 if any(t["failures"] for t in tally.values()) else 0)


if __name__ == "__main__":
    main()
