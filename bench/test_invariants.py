#!/usr/bin/env python3
"""Tests of invariants.py's own checks (issue #28), no network, no build.

    python3 bench/test_invariants.py
    python3 -m unittest bench/test_invariants.py
    SCOUT=target/release/scout python3 bench/test_invariants.py

The fixture is a temporary tree whose first file, CHANGELOG.md, is larger
than the 100 KB passthrough cap, so the passthrough page of an anchorless
pattern holds that one file alone. The checker re-runs rg on the files a
page printed; rg given one file path prints no file name, which made every
line a false I1 violation. Here scout's output is made by real `rg`, the
way scout's passthrough prints it (rg's lines in path order up to the cap,
the cut announced on stderr), and fed to Checker.check in place of a scout
run: it must give no violation, and a corrupted line must give exactly one.
With SCOUT naming a scout binary, the real passthrough is checked too;
without it that test is skipped. Needs rg on PATH.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402
import invariants as inv  # noqa: E402

PATTERNS = [r".", r"\d+", r"[a-z]{2,}"]


def make_tree(root):
    """CHANGELOG.md (about 170 KB, over the cap) and two small files."""
    with open(os.path.join(root, "CHANGELOG.md"), "w") as fh:
        fh.write("# Release Notes for 13.x\n")
        for i in range(4000):
            fh.write("- change %d: fixed the thing number %d\n" % (i, i * 7))
    os.mkdir(os.path.join(root, "src"))
    with open(os.path.join(root, "src", "main.py"), "w") as fh:
        fh.write("def main():\n    return 42\n")
    with open(os.path.join(root, "src", "util.py"), "w") as fh:
        fh.write("def helper(x):\n    return x * 2\n")
    assert os.path.getsize(os.path.join(root, "CHANGELOG.md")) > inv.PASSTHROUGH_CAP


def passthrough_from_rg(repo, pattern, cap=inv.PASSTHROUGH_CAP):
    """A scout passthrough run made with rg: `rg -n` lines of `.` sorted by
    path and line, as many as fit the cap, and the cut note scout prints."""
    p = subprocess.run(["rg", "-n", "--no-heading", "-e", pattern, "."],
                       cwd=repo, stdout=subprocess.PIPE, check=True)
    lines = [l + b"\n" for l in bl.split_lines(p.stdout)]
    lines.sort(key=lambda l: (lambda m: (m.group(1), int(m.group(2))))(
        re.match(rb"^(.*?):(\d+):", l)))
    out, printed = [], 0
    for l in lines:
        if printed + len(l) > cap:
            break
        out.append(l)
        printed += len(l)
    total = sum(len(l) for l in lines)
    err = b""
    if len(out) < len(lines):
        err = ("scout: no literal anchor of 3+ characters, so rg's lines are "
               "shown unranked; cut at %d bytes: %d of %d matching lines (%d "
               "of %d bytes) shown. All of them: rg -n --no-heading -e %s . "
               "(or --passthrough-cap 0)\n" % (cap, len(out), len(lines),
                                              printed, total, shlex.quote(pattern))).encode()
    return bl.Run(["scout", "search", pattern, "."], 0, b"".join(out), err, 0.01)


def fake_checker(repo, run):
    """A Checker whose scout runs all answer `run` (no scout binary)."""
    c = inv.Checker(repo, "scout-not-run", dict(os.environ), 60, [])
    c.scout_run = lambda q, json_mode=False, rg_json=False: run
    return c


class Fixture(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not shutil.which("rg"):
            raise unittest.SkipTest("rg is not on PATH")
        cls.repo = tempfile.mkdtemp(prefix="scout-test-inv-")
        make_tree(cls.repo)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.repo, ignore_errors=True)


class PassthroughOfOneFile(Fixture):
    def test_rg_lines_of_one_file_name_it(self):
        q = bl.Query(r"\d+", "anchorless")
        c = fake_checker(self.repo, None)
        lines, _, _ = c.rg_lines(q, {b"CHANGELOG.md"})
        self.assertIn(b"CHANGELOG.md:1:# Release Notes for 13.x", lines)
        self.assertTrue(all(l.startswith(b"CHANGELOG.md:") for l in lines))

    def test_page_of_one_file_has_no_violation(self):
        for pattern in PATTERNS:
            with self.subTest(pattern=pattern):
                run = passthrough_from_rg(self.repo, pattern)
                page = bl.parse_scout(run.out, bl.repo_exists(self.repo))
                self.assertEqual({p for p, _, _ in page.plain},
                                 {b"CHANGELOG.md"}, "fixture: one file on the page")
                self.assertTrue(run.err, "fixture: the cap cuts the page")
                q = bl.Query(pattern, "anchorless")
                v, _, facts = fake_checker(self.repo, run).check(q)
                self.assertEqual(v, [])
                self.assertEqual(facts.get("mode"), "passthrough")

    def test_corrupted_line_is_one_violation(self):
        run = passthrough_from_rg(self.repo, r"\d+")
        lines = run.out.split(b"\n")
        self.assertTrue(lines[5].startswith(b"./CHANGELOG.md:6:- change 4:"))
        lines[5] = lines[5].replace(b"fixed", b"fixeD")
        bad = bl.Run(run.argv, 0, b"\n".join(lines), run.err, run.secs)
        v, _, _ = fake_checker(self.repo, bad).check(bl.Query(r"\d+", "anchorless"))
        self.assertEqual([x[0] for x in v], ["I1"], v)
        self.assertIn("1 printed lines are not rg lines", v[0][1])
        self.assertIn("CHANGELOG.md:6:- change 4: fixeD", v[0][1])


class RealScout(Fixture):
    def test_real_passthrough_has_no_violation(self):
        scout = os.environ.get("SCOUT")
        if not scout or not os.access(scout, os.X_OK):
            self.skipTest("SCOUT does not name a scout binary")
        state = tempfile.mkdtemp(prefix="scout-test-inv-state-")
        try:
            c = inv.Checker(self.repo, os.path.abspath(scout),
                            bl.scout_env(state), 60, [])
            for pattern in PATTERNS:
                with self.subTest(pattern=pattern):
                    v, _, facts = c.check(bl.Query(pattern, "anchorless"))
                    self.assertEqual(v, [])
                    self.assertEqual(facts.get("mode"), "passthrough")
        finally:
            shutil.rmtree(state, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
