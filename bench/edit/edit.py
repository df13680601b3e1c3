#!/usr/bin/env python3
"""`scout edit --structural` against `ast-grep run -U`: byte-identical trees, and wall time.

    python3 bench/edit/edit.py --scout PATH [--ast-grep ast-grep] [--runs 3]
        [--corpus NAME=SPEC]... [--only TEXT]... [--exclude NAME]...
        [--json FILE] [--diffs 3] [--diff-lines 24] [--timeout 1800]
        [--allow-sg-skips] [--keep-going]

NAME is one of the pattern sets below (python, rust, tsjs); SPEC is a
comma-separated list of directories or globs (~ expanded). One directory is
copied as the corpus root; several become subdirectories named after their
basenames. Directories named by --exclude (default: __pycache__,
site-packages) are left out of the copy.

For each corpus and pattern/rewrite pair, --runs times (interleaved: scout,
ast-grep, scout, ast-grep, ...), each run on two fresh copies of the corpus:

    cwd=copy1: scout edit --structural --lang L -e PATTERN --rewrite T --json .
    cwd=copy2: ast-grep run -p PATTERN -r T -l L -U .

timed with time.perf_counter() around subprocess.run (the copies are not
timed). Then every file of the two trees is compared byte for byte (plus file
modes and the set of paths), and each tree against the pristine copy to count
the files each tool changed. A differing file is classified (one tool only,
ast-grep's large-file or non-UTF-8 skip, whitespace only, CRLF, ...) and the
first --diffs of them are shown as a short unified diff (scout's tree is
"a/", ast-grep's "b/").

A pair marked expect=refused is one scout is designed to refuse (the rewrite
adds a syntax error, e.g. `if x: raise E` -> `if x: if True:`): it passes
when scout exits 2, scout's tree is untouched and ast-grep rewrote
something; for Python the script also counts the files ast-grep's output no
longer parses (compile()) that parsed before.

Exit status: 0 when every expect=identical pair gave identical trees in every
run and every expect=refused pair behaved as described; 1 otherwise (with
--allow-sg-skips, files explained only by the ast-grep CLI skipping files
over 3 MB and 200,000 lines, or not UTF-8, are reported but do not fail).
"""

import argparse
import ast
import difflib
import glob
import hashlib
import json
import os
import re
import shutil
import statistics
import stat
import subprocess
import sys
import tempfile
import time
import warnings

# ------------------------------------------------------------------ patterns

# (id, corpus, scout --lang, ast-grep -l, pattern, rewrite, expect)
PAIRS = [
    # Rust
    ("rs-unwrap", "rust", "rust", "rust", "$X.unwrap()", "$X?", "identical"),
    ("rs-clone", "rust", "rust", "rust", "$X.clone()", "Clone::clone(&$X)", "identical"),
    ("rs-println", "rust", "rust", "rust", "println!($$$A)", "eprintln!($$$A)", "identical"),
    ("rs-panic", "rust", "rust", "rust", "panic!($$$A)", "unreachable!($$$A)", "identical"),
    ("rs-len-zero", "rust", "rust", "rust", "$A.len() == 0", "$A.is_empty()", "identical"),
    ("rs-expect-ml", "rust", "rust", "rust", "$X.expect($M)",
     'match $X {\n    Some(v) => v,\n    None => panic!("{}", $M),\n}', "identical"),
    ("rs-unsafe-ml", "rust", "rust", "rust", "unsafe { $$$B }",
     "unsafe {\n    // SAFETY: checked by the caller\n    $$$B\n}", "identical"),
    ("rs-for-ml", "rust", "rust", "rust", "for $P in $I { $$$B }",
     "$I.into_iter().for_each(|$P| {\n    $$$B\n});", "identical"),
    # `} else if let Some(x) = y {` becomes `} else match y {`: not Rust.
    ("rs-iflet-ml", "rust", "rust", "rust", "if let Some($V) = $X { $$$B }",
     "match $X {\n    Some($V) => {\n        $$$B\n    }\n    None => {}\n}", "refused"),
    # Python
    ("py-print", "python", "py", "py", "print($$$A)", "log($$$A)", "identical"),
    ("py-isinstance", "python", "py", "py", "isinstance($X, $T)", "type($X) is $T", "identical"),
    ("py-len-zero", "python", "py", "py", "len($X) == 0", "not $X", "identical"),
    ("py-assert", "python", "py", "py", "assert $X", 'assert $X, "assertion failed"', "identical"),
    ("py-open-ml", "python", "py", "py", "with open($P) as $F: $$$B",
     'with open($P, encoding="utf-8") as $F:\n    $$$B', "identical"),
    ("py-main-ml", "python", "py", "py", 'if __name__ == "__main__": $$$B',
     'def main():\n    $$$B\n\nif __name__ == "__main__":\n    main()', "identical"),
    ("py-raise-ml", "python", "py", "py", "raise $E", "if True:\n    raise $E", "refused"),
    # TypeScript (.d.ts declarations of the typescript package)
    ("ts-declare-var", "tsjs", "ts", "ts", "declare var $X: $T;", "declare const $X: $T;", "identical"),
    ("ts-declare-fn", "tsjs", "ts", "ts", "declare function $F($$$A): $R;",
     "export declare function $F($$$A): $R;", "identical"),
    ("ts-interface-ml", "tsjs", "ts", "ts", "interface $I { $$$B }",
     "interface $I {\n    $$$B\n}", "identical"),
    # JavaScript (typescript's lib/*.js, react's *.js)
    ("js-console-log", "tsjs", "js", "js", "console.log($$$A)", "logger.debug($$$A)", "identical"),
    ("js-console-error", "tsjs", "js", "js", "console.error($$$A)", "logger.error($$$A)", "identical"),
    ("js-void0", "tsjs", "js", "js", "$A === void 0", "$A === undefined", "identical"),
    ("js-new-error", "tsjs", "js", "js", "new Error($M)", "new TypeError($M)", "identical"),
    ("js-eq-null", "tsjs", "js", "js", "$A == null", "$A === null || $A === undefined", "identical"),
    ("js-assert-ml", "tsjs", "js", "js", "Debug.assert($$$A);",
     "if (DEBUG) {\n  Debug.assert($$$A);\n}", "identical"),
]

DEFAULT_EXCLUDES = ["__pycache__", "site-packages"]

# The ast-grep CLI (crates/cli/src/utils/mod.rs, read_file) skips a file
# whose text is longer than MAX_FILE_SIZE bytes AND has more than
# MAX_LINE_COUNT lines (str::lines), an empty file, and a file that is not
# valid UTF-8 (read_to_string fails).
SG_MAX_FILE_SIZE = 3_000_000
SG_MAX_LINE_COUNT = 200_000

# Source files of the benchmarked languages (for the list of files the
# ast-grep CLI does not read; other files are walked by neither tool).
SOURCE_EXTS = (".py", ".pyi", ".rs", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")

APPLIED_RE = re.compile(rb"Applied (\d+) changes?")

# ------------------------------------------------------------------ helpers


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def expand_spec(spec):
    out = []
    for part in spec.split(","):
        part = os.path.expanduser(part.strip())
        if not part:
            continue
        hits = sorted(glob.glob(part)) if glob.has_magic(part) else [part]
        for h in hits:
            if os.path.isdir(h):
                out.append(os.path.abspath(h))
            else:
                log(f"warning: {h} is not a directory, skipped")
    return out


def build_base(sources, dst, excludes):
    ignore = shutil.ignore_patterns(*excludes) if excludes else None
    if len(sources) == 1:
        shutil.copytree(sources[0], dst, symlinks=True, ignore=ignore)
    else:
        os.makedirs(dst)
        for src in sources:
            name = os.path.basename(src.rstrip("/"))
            shutil.copytree(src, os.path.join(dst, name), symlinks=True, ignore=ignore)


def copy_tree(src, dst):
    subprocess.run(["cp", "-a", src, dst], check=True)


def snapshot(root):
    """rel path -> (kind, mode, digest). kind: f (regular file), l (symlink)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("l", 0, os.readlink(full))
            elif stat.S_ISREG(st.st_mode):
                h = hashlib.sha256()
                with open(full, "rb") as f:
                    while True:
                        chunk = f.read(1 << 20)
                        if not chunk:
                            break
                        h.update(chunk)
                out[rel] = ("f", stat.S_IMODE(st.st_mode), h.hexdigest())
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("d", 0, "")
    return out


def changed_files(base, tree):
    """Files (not directories) whose bytes, kind or presence differ from the
    pristine copy's."""
    out = []
    for k in set(base) | set(tree):
        b, t = base.get(k), tree.get(k)
        if (b and b[0] == "d") and (t and t[0] == "d"):
            continue
        if b is None or t is None or b[0] != t[0] or b[2] != t[2]:
            out.append(k)
    return sorted(out)


def read_bytes(root, rel):
    try:
        with open(os.path.join(root, rel), "rb") as f:
            return f.read()
    except OSError:
        return None


def sg_skips(data):
    """Why the ast-grep CLI would not read this file, or None."""
    if data is None:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8: the ast-grep CLI skips it (read_to_string fails)"
    if len(text.encode()) > SG_MAX_FILE_SIZE and len(text.splitlines()) > SG_MAX_LINE_COUNT:
        return (f"{len(data)} bytes, {len(text.splitlines())} lines: the ast-grep CLI skips files over "
                f"{SG_MAX_FILE_SIZE} bytes with over {SG_MAX_LINE_COUNT} lines")
    if not text:
        return "empty: the ast-grep CLI skips it"
    return None


def classify(rel, base_root, s_root, g_root, base_snap, s_snap, g_snap):
    """(category, detail) for one file that differs between the trees."""
    b, s, g = base_snap.get(rel), s_snap.get(rel), g_snap.get(rel)
    if s is None or g is None:
        who = "ast-grep" if s is None else "scout"
        if b is None:
            return "created", f"only in {who}'s tree (created by {who})"
        return "deleted", f"missing from {'scout' if s is None else 'ast-grep'}'s tree"
    if s[0] != g[0]:
        return "kind", f"scout: {s[0]}, ast-grep: {g[0]}"
    if s[2] == g[2]:
        return "mode", f"same bytes, mode scout {oct(s[1])} ast-grep {oct(g[1])}"
    base_bytes = read_bytes(base_root, rel)
    if b is not None and g[2] == b[2]:
        why = sg_skips(base_bytes)
        if why:
            return "sg-skip", "rewritten by scout only; " + why
        return "scout-only", "rewritten by scout only (ast-grep left it as it was)"
    if b is not None and s[2] == b[2]:
        if os.path.basename(rel).startswith("."):
            return "sg-hidden", ("rewritten by ast-grep only; a hidden file: scout skips hidden files, "
                                 "ast-grep 0.51 walks hidden files (not hidden directories)")
        return "sg-only", "rewritten by ast-grep only (scout left it as it was)"
    sb, gb = read_bytes(s_root, rel), read_bytes(g_root, rel)
    notes = []
    if base_bytes is not None and b"\r\n" in base_bytes:
        notes.append("the original has CRLF line ends")
    if sb.replace(b"\r\n", b"\n") == gb.replace(b"\r\n", b"\n"):
        return "crlf", "differ only in CRLF vs LF; " + "; ".join(notes)
    if re.sub(rb"\s+", b"", sb) == re.sub(rb"\s+", b"", gb):
        return "whitespace", "differ only in whitespace (indentation?)" + ("; " + "; ".join(notes) if notes else "")
    return "content", "both rewrote it, differently" + ("; " + "; ".join(notes) if notes else "")


def short_diff(a_bytes, b_bytes, rel, max_lines, context=3):
    """Unified diff of a window around the first difference (difflib on a
    whole 9 MB file with thousands of changes is too slow)."""
    a = (a_bytes or b"").decode("utf-8", "replace").splitlines(keepends=True)
    b = (b_bytes or b"").decode("utf-8", "replace").splitlines(keepends=True)
    i = 0
    while i < len(a) and i < len(b) and a[i] == b[i]:
        i += 1
    lo = max(0, i - context)
    hi = i + max_lines
    out = [f"    first difference at line {i + 1}\n"]
    diff = difflib.unified_diff(a[lo:hi], b[lo:hi], f"a/{rel} (scout, from line {lo + 1})",
                                f"b/{rel} (ast-grep, from line {lo + 1})", n=context)
    for n, line in enumerate(diff):
        if n >= max_lines:
            out.append("    ...\n")
            break
        line = line if line.endswith("\n") else line + "\n"
        out.append("    " + line.replace("\r", "\\r"))
    return "".join(out)


def py_parses(data, name):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(data, name, "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
        return True
    except (SyntaxError, ValueError):
        return False


def binary_stamp(path):
    try:
        st = os.stat(path)
        return (st.st_size, int(st.st_mtime))
    except OSError:
        return None


def run_timed(argv, cwd, env, timeout):
    start = time.perf_counter()
    try:
        p = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stdout, p.stderr, time.perf_counter() - start
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or b"", e.stderr or b"", time.perf_counter() - start


def run_scout(scout, cwd, env, lang, pattern, rewrite, timeout):
    # The binary may be rebuilt by someone else while we run: wait for it.
    for _ in range(120):
        if os.access(scout, os.X_OK) or os.sep not in scout:
            break
        time.sleep(1)
    argv = [scout, "edit", "--structural", "--lang", lang, "-e", pattern, "--rewrite", rewrite, "--json", "."]
    code, out, err, secs = run_timed(argv, cwd, env, timeout)
    if code in (126, 127) or (code is not None and code < 0):
        time.sleep(5)
        code, out, err, secs = run_timed(argv, cwd, env, timeout)
    report = None
    try:
        report = json.loads(out) if out.strip() else None
    except ValueError:
        pass
    return code, report, err, secs


def run_sg(sg, cwd, lang, pattern, rewrite, timeout):
    argv = [sg, "run", "-p", pattern, "-r", rewrite, "-l", lang, "-U", "."]
    code, out, err, secs = run_timed(argv, cwd, None, timeout)
    # ast-grep prints "Applied N changes" on standard error.
    m = APPLIED_RE.search(err) or APPLIED_RE.search(out)
    return code, (int(m.group(1)) if m else 0), out, err, secs


def median(xs):
    return statistics.median(xs) if xs else None


def fmt_s(x):
    return "-" if x is None else f"{x:.2f}"


# ------------------------------------------------------------------ main


def bench_pair(pair, base, base_snap, args, tmp):
    pid, corpus, lang, sg_lang, pattern, rewrite, expect = pair
    res = {
        "id": pid, "corpus": corpus, "lang": lang, "pattern": pattern, "rewrite": rewrite,
        "expect": expect, "runs": [], "scout_times": [], "sg_times": [],
    }
    first_s = first_g = None
    for r in range(args.runs):
        run_dir = tempfile.mkdtemp(prefix=f"run{r}-", dir=tmp)
        s_root, g_root = os.path.join(run_dir, "scout"), os.path.join(run_dir, "astgrep")
        state = os.path.join(run_dir, "state")
        copy_tree(base, s_root)
        copy_tree(base, g_root)
        env = dict(os.environ)
        for k in ("SCOUT_SESSION_ID", "CLAUDE_CODE_SESSION_ID", "CODEX_THREAD_ID"):
            env.pop(k, None)
        env["XDG_STATE_HOME"] = os.path.join(state, "state")
        env["XDG_CACHE_HOME"] = os.path.join(state, "cache")
        stamp = binary_stamp(args.scout)
        s_code, s_rep, s_err, s_secs = run_scout(args.scout, s_root, env, lang, pattern, rewrite, args.timeout)
        g_code, g_applied, g_out, g_err, g_secs = run_sg(args.ast_grep, g_root, sg_lang, pattern, rewrite, args.timeout)
        res["scout_times"].append(s_secs)
        res["sg_times"].append(g_secs)
        s_snap, g_snap = snapshot(s_root), snapshot(g_root)
        run = {
            "scout_exit": s_code, "scout_secs": s_secs, "sg_exit": g_code, "sg_secs": g_secs,
            "sg_applied": g_applied, "scout_binary": stamp,
            "scout_report": {k: s_rep.get(k) for k in ("files", "files_changed", "matches", "rewritten", "left_alone", "written")} if s_rep else None,
            "scout_stderr": s_err.decode("utf-8", "replace")[:4000] if s_code not in (0, 1) else "",
            "sg_stderr": g_err.decode("utf-8", "replace")[:2000] if g_code not in (0, 1) else "",
        }
        run["scout_changed"] = len(changed_files(base_snap, s_snap))
        run["sg_changed"] = len(changed_files(base_snap, g_snap))
        differing = sorted(
            k for k in set(s_snap) | set(g_snap)
            if s_snap.get(k) != g_snap.get(k) and not (s_snap.get(k, ("d",))[0] == "d" and g_snap.get(k, ("d",))[0] == "d")
        )
        run["differing"] = len(differing)
        if r == 0:
            classes, shown = {}, []
            for rel in differing:
                cat, detail = classify(rel, base, s_root, g_root, base_snap, s_snap, g_snap)
                classes.setdefault(cat, []).append(rel)
                if len(shown) < args.diffs:
                    diff = ""
                    if cat not in ("mode", "kind", "deleted", "created"):
                        diff = short_diff(read_bytes(s_root, rel), read_bytes(g_root, rel), rel, args.diff_lines)
                    shown.append({"path": rel, "category": cat, "detail": detail, "diff": diff})
            run["classes"] = {k: {"count": len(v), "first": v[:10]} for k, v in sorted(classes.items())}
            run["shown"] = shown
            if expect == "refused" and lang == "py":
                broken = []
                for rel in changed_files(base_snap, g_snap):
                    if not rel.endswith(".py"):
                        continue
                    before, after = read_bytes(base, rel), read_bytes(g_root, rel)
                    if before is not None and after is not None and py_parses(before, rel) and not py_parses(after, rel):
                        broken.append(rel)
                run["sg_broke_python"] = {"count": len(broken), "first": broken[:10]}
            first_s, first_g = s_snap, g_snap
        else:
            run["scout_same_as_run0"] = s_snap == first_s
            run["sg_same_as_run0"] = g_snap == first_g
        res["runs"].append(run)
        shutil.rmtree(run_dir, ignore_errors=True)
        log(f"  {pid} run {r + 1}/{args.runs}: scout exit {s_code} {s_secs:.2f}s, ast-grep exit {g_code} "
            f"{g_secs:.2f}s, {len(differing)} files differ")
    res["scout_median"] = median(res["scout_times"])
    res["sg_median"] = median(res["sg_times"])
    res["ratio"] = (res["scout_median"] / res["sg_median"]) if res["sg_median"] else None
    res["verdict"], res["why"] = verdict(res, args)
    return res


def verdict(res, args):
    """('pass'|'FAIL', reason)."""
    r0 = res["runs"][0]
    if any(r["scout_exit"] is None or r["sg_exit"] is None for r in res["runs"]):
        return "FAIL", "timeout"
    stamps = {tuple(r["scout_binary"] or ()) for r in res["runs"]}
    unstable = [i for i, r in enumerate(res["runs"][1:], 1)
                if not (r.get("scout_same_as_run0") and r.get("sg_same_as_run0"))]
    if res["expect"] == "refused":
        ok = (r0["scout_exit"] == 2 and r0["scout_changed"] == 0 and r0["sg_applied"] > 0
              and all(r["scout_exit"] == 2 for r in res["runs"]))
        if not ok:
            return "FAIL", (f"expected scout to refuse (exit 2, nothing written); got exit {r0['scout_exit']}, "
                            f"{r0['scout_changed']} files changed")
        return "pass", "scout refused as designed; ast-grep wrote the rewrite"
    if r0["scout_exit"] not in (0, 1):
        return "FAIL", f"scout exit {r0['scout_exit']}"
    if unstable:
        return "FAIL", f"a tree of run(s) {unstable} differs from run 1's" + (" (scout binary changed mid-pair)" if len(stamps) > 1 else "")
    if r0["sg_applied"] == 0 and r0["scout_changed"] == 0 and (r0["scout_report"] or {}).get("matches", 0) == 0:
        return "FAIL", "nothing matched (the pair tests nothing)"
    if r0["differing"] == 0:
        return "pass", "identical"
    cats = set(r0["classes"])
    if args.allow_sg_skips and cats <= {"sg-skip"}:
        return "pass", "differs only in files the ast-grep CLI does not read (--allow-sg-skips)"
    return "FAIL", "trees differ: " + ", ".join(f"{k} {v['count']}" for k, v in r0["classes"].items())


def print_table(results):
    head = ("| corpus | id | lang | pattern | files changed scout/sg | scout matches/rewritten/left | sg applied "
            "| identical | differing files | scout s | sg s | ratio | verdict |")
    print(head)
    print("|" + "---|" * 13)
    for res in results:
        r0 = res["runs"][0]
        rep = r0["scout_report"] or {}
        if res["expect"] == "refused":
            ident = "no (scout refuses, expected)" if r0["scout_exit"] == 2 else "no"
        elif r0["differing"] == 0 and all(r.get("differing", 1) == 0 for r in res["runs"]):
            ident = "yes"
        else:
            ident = "NO (" + ", ".join(f"{k} {v['count']}" for k, v in r0.get("classes", {}).items()) + ")"
        pat = res["pattern"].replace("|", "\\|")
        ratio = "-" if res["ratio"] is None else f"{res['ratio']:.2f}"
        print(f"| {res['corpus']} | {res['id']} | {res['lang']} | `{pat}` | {r0['scout_changed']}/{r0['sg_changed']} "
              f"| {rep.get('matches', '-')}/{rep.get('rewritten', '-')}/{rep.get('left_alone', '-')} "
              f"| {r0['sg_applied']} | {ident} | {r0['differing']} | {fmt_s(res['scout_median'])} "
              f"| {fmt_s(res['sg_median'])} | {ratio} "
              f"| {res['verdict']} |")


def print_details(results):
    for res in results:
        r0 = res["runs"][0]
        lines = []
        if r0["scout_exit"] not in (0, 1):
            lines.append(f"  scout exit {r0['scout_exit']}: " + r0["scout_stderr"].strip().replace("\n", "\n    ")[:1500])
        if r0.get("sg_broke_python"):
            b = r0["sg_broke_python"]
            lines.append(f"  ast-grep's output: {b['count']} .py files that compiled before no longer compile, e.g. {b['first'][:5]}")
        rep = r0["scout_report"] or {}
        if rep and rep.get("files_changed") is not None and r0["scout_exit"] == 0 and rep["files_changed"] != r0["scout_changed"]:
            lines.append(f"  note: scout's report says files_changed={rep['files_changed']}, the tree shows {r0['scout_changed']}")
        if rep and rep.get("rewritten") is not None and r0["scout_exit"] == 0 and rep["rewritten"] != r0["sg_applied"]:
            lines.append(f"  note: rewritten scout {rep['rewritten']} vs ast-grep applied {r0['sg_applied']}")
        for k, v in r0.get("classes", {}).items():
            lines.append(f"  {v['count']} differing file(s) of kind {k}: {', '.join(v['first'][:5])}")
        for sh in r0.get("shown", []):
            lines.append(f"  {sh['path']}: [{sh['category']}] {sh['detail']}")
            if sh["diff"]:
                lines.append(sh["diff"].rstrip("\n"))
        if lines:
            print(f"\n### {res['corpus']} {res['id']}: `{res['pattern']}` -> {json.dumps(res['rewrite'])} ({res['verdict']}: {res['why']})")
            print("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scout", required=True, help="the scout binary")
    ap.add_argument("--ast-grep", dest="ast_grep", default="ast-grep")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--corpus", action="append", default=[], help="NAME=SPEC (python, rust, tsjs)")
    ap.add_argument("--only", action="append", default=[], help="only pair ids containing TEXT")
    ap.add_argument("--exclude", action="append", default=None, help="directory/file name left out of the copy")
    ap.add_argument("--no-default-excludes", action="store_true")
    ap.add_argument("--json", dest="json_out", default=None)
    ap.add_argument("--diffs", type=int, default=3, help="differing files shown per pair")
    ap.add_argument("--diff-lines", type=int, default=24)
    ap.add_argument("--timeout", type=float, default=1800.0)
    ap.add_argument("--allow-sg-skips", action="store_true")
    ap.add_argument("--tmp", default=None, help="where the copies go (default: the system temp dir)")
    args = ap.parse_args()
    if os.sep in args.scout:
        args.scout = os.path.abspath(args.scout)
    if not args.corpus:
        ap.error("give at least one --corpus NAME=SPEC")
    excludes = ([] if args.no_default_excludes else list(DEFAULT_EXCLUDES)) + (args.exclude or [])

    corpora = {}
    for c in args.corpus:
        name, _, spec = c.partition("=")
        if name not in {p[1] for p in PAIRS}:
            ap.error(f"unknown corpus {name!r}; known: python, rust, tsjs")
        srcs = expand_spec(spec)
        if not srcs:
            ap.error(f"--corpus {c}: no directory")
        corpora.setdefault(name, []).extend(srcs)

    sg_version = subprocess.run([args.ast_grep, "--version"], stdout=subprocess.PIPE, text=True).stdout.strip()
    meta = {
        "scout": args.scout, "scout_binary": binary_stamp(args.scout), "ast_grep": sg_version,
        "runs": args.runs, "excludes": excludes, "python": sys.version.split()[0],
        "corpora": {k: v for k, v in corpora.items()}, "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "cpus": os.cpu_count(),
    }
    tmp = tempfile.mkdtemp(prefix="scout-edit-bench-", dir=args.tmp)
    results, corpus_info = [], {}
    try:
        for name, srcs in corpora.items():
            pairs = [p for p in PAIRS if p[1] == name and (not args.only or any(o in p[0] for o in args.only))]
            if not pairs:
                continue
            base = os.path.join(tmp, f"base-{name}")
            log(f"# {name}: copying {len(srcs)} source dir(s) -> {base} (excluding {excludes})")
            build_base(srcs, base, excludes)
            base_snap = snapshot(base)
            nfiles = sum(1 for v in base_snap.values() if v[0] == "f")
            size = sum(os.path.getsize(os.path.join(base, k)) for k, v in base_snap.items() if v[0] == "f")
            big = []
            for k, v in base_snap.items():
                if (v[0] == "f" and k.endswith(SOURCE_EXTS)
                        and os.path.getsize(os.path.join(base, k)) > SG_MAX_FILE_SIZE):
                    why = sg_skips(read_bytes(base, k))
                    if why:
                        big.append(k)
            non_utf8 = []
            for k, v in base_snap.items():
                if v[0] == "f" and k.endswith(SOURCE_EXTS):
                    try:
                        read_bytes(base, k).decode("utf-8")
                    except UnicodeDecodeError:
                        non_utf8.append(k)
            hidden = sorted(k for k, v in base_snap.items() if v[0] == "f" and k.endswith(SOURCE_EXTS)
                            and os.path.basename(k).startswith(".")
                            and not any(c.startswith(".") for c in k.split(os.sep)[:-1]))
            corpus_info[name] = {"sources": srcs, "files": nfiles, "bytes": size, "sg_skipped_large": sorted(big),
                                 "non_utf8_sources": sorted(non_utf8), "hidden_sources": hidden}
            log(f"# {name}: {nfiles} files, {size / 1e6:.1f} MB; over ast-grep's size+line limit: {sorted(big)}")
            for pair in pairs:
                log(f"# {name} {pair[0]}: {pair[4]!r} -> {pair[5]!r}")
                results.append(bench_pair(pair, base, base_snap, args, tmp))
            shutil.rmtree(base, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    meta["scout_binary_end"] = binary_stamp(args.scout)
    print(f"scout: {args.scout} {meta['scout_binary']}; {sg_version}; {args.runs} runs per pair, medians of wall seconds; "
          f"ratio = scout / ast-grep; excludes {excludes}")
    for name, info in corpus_info.items():
        print(f"corpus {name}: {info['files']} files, {info['bytes'] / 1e6:.1f} MB, from {len(info['sources'])} dir(s); "
              f"source files the ast-grep CLI does not read (> {SG_MAX_FILE_SIZE} bytes and > {SG_MAX_LINE_COUNT} lines): "
              f"{info['sg_skipped_large'] or 'none'}; non-UTF-8 source files (ast-grep skips them): "
              f"{info['non_utf8_sources'] or 'none'}; hidden source files outside hidden dirs "
              f"(ast-grep walks them, scout does not): {info['hidden_sources'] or 'none'}")
    print()
    print_table(results)
    print_details(results)
    ratios = [r["ratio"] for r in results if r["ratio"] is not None]
    fails = [r for r in results if r["verdict"] != "pass"]
    print()
    if ratios:
        print(f"ratio scout/ast-grep over {len(ratios)} pairs: median {statistics.median(ratios):.2f}, "
              f"min {min(ratios):.2f}, max {max(ratios):.2f}")
    print(f"{len(results)} pairs, {len(results) - len(fails)} pass, {len(fails)} fail"
          + (": " + ", ".join(f"{r['id']} ({r['why']})" for r in fails) if fails else ""))
    if meta["scout_binary"] != meta["scout_binary_end"]:
        print(f"warning: the scout binary changed during the bench ({meta['scout_binary']} -> {meta['scout_binary_end']})")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({"meta": meta, "corpora": corpus_info, "results": results}, f, indent=1)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
