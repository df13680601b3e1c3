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


# ------------------------------------------------- page checks (#34)

def page(files, footer=b"", code=b"", ms=b" 12ms"):
    """A ranked text page naming `files` (path, hits), its header's
    ~Ntok computed as scout does (the page without code or elapsed)."""
    body = b"".join(b"%s  (%dx)\n    1: x\n" % (p, n) for p, n in files) + footer
    head = lambda tok: b"query: x  kind=literal  hits=9 files=%d  shown=%d " \
                       b"page=1/1  ~%dtok" % (len(files), len(files), tok)
    tok = 0
    for _ in range(3):
        tok = -(-len(head(tok) + b"\n" + body) // inv.BYTES_PER_TOKEN)
    return head(tok) + ms + b"\n" + body + code


def run_of(out, code=0, err=b""):
    return bl.Run(["scout"], code, out, err, 0.01)


class BudgetCheck(unittest.TestCase):
    def test_a_page_at_its_budget_passes_one_byte_more_fails(self):
        out = b"x" * 1200
        self.assertEqual(inv.check_budget("p", out, 300), [])
        v = inv.check_budget("p", out + b"y", 300)
        self.assertEqual([x[0] for x in v], ["BUDGET"], v)
        self.assertIn("1201 bytes > 300 tokens x 4 = 1200 bytes", v[0][1])
        self.assertIn("over by 1", v[0][1])

    def test_attached_code_counts(self):
        base = page([(b"a.py", 2)])
        code = b"code: a.py  function f (1-3)\n" + b"  1: def f():\n" * 40
        out = base + code
        self.assertLessEqual(len(base), 400)
        v = inv.check_budget("p", out, len(out) // 4 - 1)
        self.assertEqual([x[0] for x in v], ["BUDGET"], v)
        self.assertIn("code: section %d bytes" % len(code), v[0][1])

    def test_the_elapsed_time_counts(self):
        out = page([(b"a.py", 2)])
        tokens = len(out) // 4
        if len(out) % 4 == 0:
            out += b"\n"
        v = inv.check_budget("p", out, tokens)
        self.assertEqual(len(v), 1)

    def test_no_budget_no_limit(self):
        self.assertEqual(inv.check_budget("p", b"x" * 10 ** 6, 0), [])

    def test_tok_note(self):
        out = page([(b"a.py", 2), (b"b.py", 1)])
        self.assertIsNone(inv.tok_note("p", out))
        self.assertIsNone(inv.tok_note("p", out + b"code: a.py  function f (1-2)\n"))
        wrong = re.sub(rb"~\d+tok", b"~3tok", out)
        self.assertIn("header ~3tok", inv.tok_note("p", wrong))

    def test_grep_and_files_counts(self):
        out = (b"./a.py:1:x\n./a.py-2-ctx\n--\n./b.py:3:x\n"
               b"[showing lines 1-2 of 9; next page: scout grep x --offset 2]\n")
        self.assertEqual(inv.grep_results(out, "content"), 2)
        self.assertEqual(inv.check_count("g", 2, 2, "results"), [])
        v = inv.check_count("g", inv.grep_results(out, "content"), 1, "results")
        self.assertEqual([x[0] for x in v], ["BUDGET"])
        counts = b"./a.py:4\n./b.py:5\n[total: 9 matching lines in 2 files]\n"
        self.assertEqual(inv.grep_results(counts, "count"), 2)
        files = b"a.py\nb.py\n[showing files 1-2 of 9; next page: ...]\n"
        self.assertEqual(inv.grep_results(files, "files_with_matches"), 2)


class LiteralRun(unittest.TestCase):
    def test_anchors_as_scout_plans_them(self):
        for pattern, run in [("get\\w+Name", 4), ("is[A-Z]\\w+\\(", 2),
                             ("to_\\w+\\(", 3), ("\\w+_test\\b", 5),
                             ("(a|b)c", 1), ("x{2}", 1), ("abcd?", 3),
                             ("foo|ba", 2), ("import \\w+ as \\w+", 7),
                             ("[a-z]{2,}", 0), (".", 0), ("colou?r", 4)]:
            with self.subTest(pattern=pattern):
                self.assertEqual(inv.literal_run(pattern), run)
        for pattern in bl.ANCHORLESS:
            self.assertLess(inv.literal_run(pattern), 3, pattern)


class ColdCheck(unittest.TestCase):
    def test_elapsed_aside_same_bytes(self):
        a = page([(b"a.py", 2)], ms=b" 130ms")
        b = page([(b"a.py", 2)], ms=b" 9ms")
        self.assertEqual(inv.check_cold("s", run_of(a), run_of(b)), [])
        ja, jb = b'{"hits":1,"elapsed_ms":130}', b'{"hits":1,"elapsed_ms": 9}'
        self.assertEqual(inv.check_cold("s", run_of(ja), run_of(jb)), [])

    def test_a_different_byte_or_exit_fails(self):
        a = page([(b"a.py", 2)])
        b = a.replace(b"1: x", b"1: y")
        v = inv.check_cold("s", run_of(a), run_of(b))
        self.assertEqual([x[0] for x in v], ["COLD"], v)
        self.assertIn("line 3", v[0][1])
        v = inv.check_cold("s", run_of(a), run_of(a, code=1))
        self.assertEqual([x[0] for x in v], ["COLD"], v)


class AgainCheck(unittest.TestCase):
    def test_page_files_include_collapsed_files(self):
        out = page([(b"a.py", 2)], footer=(
            b"./b.py  (3x) [def]: 3 already shown, unchanged\n"
            b"  seen 4: def b():\n+3 files not shown: scout search x --page 2\n"
            b"repro: rg -n x\n"), code=b"code: c.py  function f (1-2)\n  1: x\n")
        self.assertEqual(inv.page_files(out), [b"a.py", b"b.py"])
        self.assertEqual(inv.page_files(b"./a.py:1:x\n./b.py:2:y\n./a.py:3:z\n"),
                         [b"a.py", b"b.py"])

    def test_same_files_pass_a_moved_file_fails(self):
        p1, p2 = page([(b"a.py", 1), (b"b.py", 1)]), page([(b"c.py", 1)])
        self.assertEqual(inv.check_again("s", [p1, p2], [p1, p2]), [])
        q1, q2 = page([(b"a.py", 1)]), page([(b"b.py", 1), (b"c.py", 1)])
        v = inv.check_again("s", [p1, p2], [q1, q2])
        self.assertEqual([x[0] for x in v], ["AGAIN", "AGAIN"], v)
        self.assertIn("--page 1: 2 files, with --again 1; only without: b.py", v[0][1])
        self.assertIn("--page 2", v[1][1])

    def test_page_count_differs(self):
        p1 = page([(b"a.py", 1)])
        q1 = p1.replace(b"page=1/1", b"page=1/2")
        v = inv.check_again("s", [p1], [q1])
        self.assertEqual([x[0] for x in v], ["AGAIN"], v)
        self.assertIn("page=1/1, with --again page=1/2", v[0][1])
        # rg's plain lines (smaller than the page, I2): only files count.
        self.assertEqual(inv.check_again("s", [p1], [b"./a.py:1:x\n"]), [])
        v = inv.check_again("s", [p1], [b"./a.py:1:x\n./b.py:1:x\n"])
        self.assertEqual([x[0] for x in v], ["AGAIN", "AGAIN"], v)
        self.assertIn("only with: b.py", v[0][1])
        self.assertIn("with --again page=none (rg's plain lines)", v[1][1])


class RepeatCheck(unittest.TestCase):
    def test_smaller_or_equal_passes_larger_fails(self):
        a = page([(b"a.py", 2), (b"b.py", 1)], ms=b" 100ms")
        b = page([(b"a.py", 2)], ms=b" 1000ms")  # the ms digits do not count
        self.assertEqual(inv.check_repeat("s", [a, b, b, a]), [])
        v = inv.check_repeat("s", [b, a, b, a])
        self.assertEqual([x[0] for x in v], ["REPEAT", "REPEAT"], v)
        self.assertIn("run 2 prints %d bytes > first run %d" % (
            len(bl.MS_RE.sub(b"ms", a)), len(bl.MS_RE.sub(b"ms", b))), v[0][1])


FAKE_SCOUT = r"""#!/usr/bin/env python3
# A scout that answers `search`: pages of 300 tokens over budget on page 2,
# and a repeated search inside a session that grows by one line a run.
import os, sys
args = sys.argv[1:]
def opt(name, default):
    return int(args[args.index(name) + 1]) if name in args else default
budget, page = opt("--budget-tokens", 1500), opt("--page", 1)
state = os.path.join(os.environ["XDG_STATE_HOME"], "runs")
os.makedirs(os.environ["XDG_STATE_HOME"], exist_ok=True)
n = int(open(state).read()) if os.path.exists(state) else 0
if os.environ.get("SCOUT_SESSION_ID"):
    open(state, "w").write(str(n + 1))
else:
    n = 0
if page > 3:
    sys.stderr.write("scout: there is no page %d: this search has 3 pages\n" % page)
    sys.exit(2)
files = ["f%d_%d.py" % (page, i) for i in range(2)]
if "--again" in args and page == 1:
    files = files[:1]
body = "".join("%s  (1x)\n    1: x\n" % f for f in files)
body += "+more: scout search x --page %d\n" % (page + 1) + "seen\n" * n
if page == 2:
    body += "y" * (budget * 4)
sys.stdout.write("query: x  kind=literal  hits=6 files=6  shown=2 page=%d/3  ~9tok 5ms\n"
                 % page + body)
"""


class PagesWithAFakeScout(Fixture):
    """Pages drives a scout (here a script): BUDGET follows --page, AGAIN
    runs every page twice, REPEAT runs in one session."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="scout-test-pages-")
        self.scout = os.path.join(self.dir, "scout")
        with open(self.scout, "w") as fh:
            fh.write(FAKE_SCOUT)
        os.chmod(self.scout, 0o755)
        c = inv.Checker(self.repo, self.scout, bl.scout_env(self.dir), 60, [])
        self.pages = inv.Pages(c, os.path.join(self.dir, "runs"))
        self.subject = inv.Subject("search", "search x", ["search"], ["x", "."])

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_budget_finds_page_2_over_every_budget(self):
        v, _ = self.pages.budget(self.subject)
        self.assertEqual([x[0] for x in v], ["BUDGET"] * 3, v)
        self.assertTrue(all("--page 2" in x[1] for x in v), v)

    def test_again_finds_page_1(self):
        v, _ = self.pages.again(self.subject)
        self.assertEqual([x[0] for x in v], ["AGAIN"], v)
        self.assertIn("--page 1:", v[0][1])

    def test_repeat_grows(self):
        v, _ = self.pages.repeat(self.subject)
        self.assertEqual([x[0] for x in v], ["REPEAT"] * 3, v)

    def test_cold_is_clean(self):
        self.assertEqual(self.pages.cold(self.subject), ([], []))

    def test_binary_files_are_not_read_subjects(self):
        """#54: the largest file of a tree could be a .png, whose refusal by
        `scout read` (by design) was counted as an error."""
        big = os.path.join(self.repo, "logo.png")
        with open(big, "wb") as fh:
            fh.write(b"\x89PNG\r\n\x1a\n\0\0" + b"x" * 500000)
        try:
            targets = self.pages.read_targets("unknown-language", 3)
        finally:
            os.remove(big)
        self.assertTrue(targets)
        self.assertNotIn("logo.png", [p for p, _ in targets])


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

    def test_page_checks_run_the_real_binary(self):
        # The page checks' command lines are ones scout accepts: no ERR
        # (a violation found here is scout's, and not this test's concern).
        scout = os.environ.get("SCOUT")
        if not scout or not os.access(scout, os.X_OK):
            self.skipTest("SCOUT does not name a scout binary")
        state = tempfile.mkdtemp(prefix="scout-test-inv-pages-")
        try:
            c = inv.Checker(self.repo, os.path.abspath(scout),
                            bl.scout_env(state), 60, [])
            pages = inv.Pages(c, state)
            queries = [bl.Query("helper", "ident"), bl.Query("change", "ident")]
            subjects = pages.subjects(queries, 2, inv.tree_lang(self.repo))
            self.assertEqual(inv.tree_lang(self.repo), "python")
            kinds = {s.kind for s in subjects}
            self.assertLessEqual({"search", "structural", "smart", "read",
                                  "grep", "files"}, kinds)
            done = pages.check_all(subjects, ["COLD", "BUDGET", "AGAIN", "REPEAT"], 2)
            errs = [(s.label, name, x) for s, name, v, _ in done for x in v
                    if x[0] == "ERR"]
            self.assertEqual(errs, [])
        finally:
            shutil.rmtree(state, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
