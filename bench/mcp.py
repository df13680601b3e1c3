#!/usr/bin/env python3
"""scout mcp against scout search in a shell (#25): the tools/list size, a
search tool call's latency paired with the same search run as a command,
and the server's memory after many calls.

    python3 bench/mcp.py REPO [--scout PATH] [--queries 30] [--runs 5]
        [--calls 1000]

- tools/list: bytes of the whole JSON-RPC response line, as sent.
- latency: identifier queries derived from REPO (benchlib), each timed
  --runs times, interleaved: `scout search --again -e Q` as a process
  (what an agent's shell runs), then a `tools/call search` with
  `again: true` on one open connection (request written to response
  read), then rg's own pass alone (`rg -n --no-heading -F -e Q` from
  PATH, drained through a pipe as latency.py runs it: close to the rg a
  search call runs, which adds `--with-filename --null`). Medians per
  query; the report gives p50/p90 over queries, the median per-query
  ratio of MCP to shell, and rg's to shell: about the floor no call can
  go under, since every search call runs such an rg.
- memory: the server's resident set (VmRSS, and its peak VmHWM) before
  and after --calls calls (search, files, grep and read in turn), and at
  each quarter of them: flat once the first quarter has warmed it.

Every scout run gets a private XDG_CACHE_HOME/XDG_STATE_HOME and no agent
session (benchlib.scout_env); the server's calls have its own session,
so `again` keeps repeated queries from collapsing.
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


class Server:
    def __init__(self, scout, repo, env):
        self.p = subprocess.Popen([scout, "mcp"], cwd=repo, env=env,
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        self.next_id = 1
        init = self.request("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "0"}})
        assert init["result"]["serverInfo"]["name"] == "scout", init
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message):
        self.p.stdin.write((json.dumps(message) + "\n").encode())
        self.p.stdin.flush()

    def request(self, method, params, raw=False):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method,
                   "params": params})
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("scout mcp closed the connection")
            message = json.loads(line)
            if message.get("id") == rid and "method" not in message:
                return line if raw else message

    def call(self, tool, arguments):
        return self.request("tools/call", {"name": tool,
                                           "arguments": arguments})

    def memory_kb(self):
        fields = {}
        with open("/proc/%d/status" % self.p.pid) as fh:
            for line in fh:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    fields[key] = int(value.split()[0])
        return fields

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=30)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("repo")
    ap.add_argument("--scout", default=None)
    ap.add_argument("--queries", type=int, default=30)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    repo = os.path.abspath(args.repo)
    scout = os.path.abspath(args.scout) if args.scout else bl.find_scout()
    state = tempfile.mkdtemp(prefix="scout-mcp-bench-")
    atexit.register(shutil.rmtree, state, True)
    env = bl.scout_env(state)

    server = Server(scout, repo, env)
    tools_line = server.request("tools/list", {}, raw=True)
    print("## scout mcp: %s" % repo)
    print()
    print("tools/list: %d bytes (the whole response line)" % len(tools_line))

    queries = [q for q in bl.derive_queries(repo, args.queries, args.seed)
               if q.kind == "ident"]
    shell, mcp, rg = {}, {}, {}
    for q in queries:
        shell[q.text], mcp[q.text], rg[q.text] = [], [], []
        for _ in range(args.runs):
            t = time.perf_counter()
            subprocess.run([scout, "search", "--again", "-e", q.text],
                           cwd=repo, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
            shell[q.text].append(time.perf_counter() - t)
            t = time.perf_counter()
            answer = server.call("search", {"query": q.text, "again": True})
            mcp[q.text].append(time.perf_counter() - t)
            assert "result" in answer, answer
            t = time.perf_counter()
            # Drained through a pipe, as scout reads it (and latency.py).
            subprocess.run(["rg", "-n", "--no-heading", "-F", "-e", q.text],
                           cwd=repo, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
            rg[q.text].append(time.perf_counter() - t)
    med_shell = [statistics.median(v) for v in shell.values()]
    med_mcp = [statistics.median(v) for v in mcp.values()]
    med_rg = [statistics.median(v) for v in rg.values()]
    ratios = [m / s for m, s in zip(med_mcp, med_shell) if s]
    floors = [r / s for r, s in zip(med_rg, med_shell) if s]
    added = [m - s for m, s in zip(med_mcp, med_shell)]
    print()
    print("| %d identifier queries, %d runs each | p50 ms | p90 ms |"
          % (len(queries), args.runs))
    print("|---|--:|--:|")
    print("| scout search (a process) | %.1f | %.1f |"
          % (bl.percentile(med_shell, 50) * 1000,
             bl.percentile(med_shell, 90) * 1000))
    print("| tools/call search (one connection) | %.1f | %.1f |"
          % (bl.percentile(med_mcp, 50) * 1000,
             bl.percentile(med_mcp, 90) * 1000))
    print("| rg's own pass (`rg -n -F -e Q`, a process) | %.1f | %.1f |"
          % (bl.percentile(med_rg, 50) * 1000,
             bl.percentile(med_rg, 90) * 1000))
    print()
    print("median per-query ratio, MCP / shell: %.2f; median added: %.1f ms"
          % (statistics.median(ratios), statistics.median(added) * 1000))
    print("median per-query ratio, rg alone / shell (the floor): %.2f"
          % statistics.median(floors))

    start = server.memory_kb()
    calls = [
        ("search", lambda i: {"query": queries[i % len(queries)].text,
                              "budget_tokens": 300}),
        ("files", lambda i: {"pattern": "*", "limit": 5}),
        ("grep", lambda i: {"pattern": queries[i % len(queries)].text,
                            "head_limit": 5}),
        ("read", lambda i: {"path": first_file(repo), "range": "1:20"}),
    ]
    t = time.perf_counter()
    marks = []
    for i in range(args.calls):
        tool, arguments = calls[i % len(calls)]
        answer = server.call(tool, arguments(i))
        assert "result" in answer, answer
        if (i + 1) % max(1, args.calls // 4) == 0:
            marks.append((i + 1, server.memory_kb()["VmRSS"]))
    secs = time.perf_counter() - t
    end = server.memory_kb()
    print()
    print("server memory: before these calls VmRSS %d KB; after %d calls "
          "(%.1f s) VmRSS %d KB, peak VmHWM %d KB"
          % (start["VmRSS"], args.calls, secs, end["VmRSS"], end["VmHWM"]))
    print("VmRSS along the way: " + ", ".join(
        "%d calls %d KB" % (n, kb) for n, kb in marks))
    server.close()


def first_file(repo):
    out = subprocess.run(["rg", "--files", "--sort", "path"], cwd=repo,
                         stdout=subprocess.PIPE).stdout.split(b"\n")
    return out[0].decode()


if __name__ == "__main__":
    main()
