#!/usr/bin/env python3
"""Call-site oracle for Java, from javac (benchmark tooling, not part of scout).

    python3 bench/callers/oracle_java.py CORPUS TARGETS.json --out CACHE.json [--force]
    python3 bench/callers/oracle_java.py --defs CORPUS      (definitions, JSON on stdout)

OracleJava.java (beside this file) is compiled into /tmp/oracle-java/classes
and run once per corpus: one JavacTask (JDK 17) parses and attributes every
`*.java` file that `rg --files` lists (module-info.java left out, so the
tree compiles as one unnamed module), with a classpath of the Debian jars
for the corpus's dependencies (junit5, gson, netty, re2j; `apt-get install
junit5 libgoogle-gson-java libnetty-java libre2j-java`) and stubs for the
jspecify annotations, which Debian lacks (written to /tmp/oracle-java/stubs).
Its dump, /tmp/oracle-java/NAME.javac.json, is reused until --force.

A call site is a method invocation whose method javac binds to the
target's own method (`Class#name(erased params)`: the member of the
receiver's static type, so a call through an interface or a base class
belongs to that type's method, not to the overriding one), or, for a class
target, `new C(...)` naming the class (with or without an anonymous body).
`this(...)`/`super(...)` constructor chaining and method references are not
calls. The line is that of the callee's name. Invocations javac cannot bind
(a missing dependency) are `unresolved`: the count of those spelled with the
target's name is kept per target. javac binds statically, so nothing is
ambiguous. Cache entries: {"sites": [[path, line]], "ambiguous": [],
"unresolved": N}.
"""
import os
import sys

# select.py lives beside this file: keep it from shadowing the standard select module
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]

import argparse  # noqa: E402
import glob  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402

WORK = "/tmp/oracle-java"
JARS = ["junit-jupiter-api", "junit-jupiter-params", "junit-platform-commons", "apiguardian-api", "opentest4j",
        "gson", "re2j", "netty-all", "netty-buffer", "netty-codec", "netty-codec-http", "netty-common",
        "netty-handler", "netty-transport", "netty-resolver"]
STUBS = {
    "org/jspecify/annotations/Nullable.java":
        "package org.jspecify.annotations;\nimport java.lang.annotation.*;\n"
        "@Target(ElementType.TYPE_USE) @Retention(RetentionPolicy.RUNTIME) public @interface Nullable {}\n",
    "org/jspecify/annotations/NonNull.java":
        "package org.jspecify.annotations;\nimport java.lang.annotation.*;\n"
        "@Target(ElementType.TYPE_USE) @Retention(RetentionPolicy.RUNTIME) public @interface NonNull {}\n",
    "org/jspecify/annotations/NullMarked.java":
        "package org.jspecify.annotations;\nimport java.lang.annotation.*;\n"
        "@Target({ElementType.MODULE, ElementType.PACKAGE, ElementType.TYPE, ElementType.METHOD, "
        "ElementType.CONSTRUCTOR}) @Retention(RetentionPolicy.RUNTIME) public @interface NullMarked {}\n",
    "org/jspecify/annotations/NullUnmarked.java":
        "package org.jspecify.annotations;\nimport java.lang.annotation.*;\n"
        "@Target({ElementType.PACKAGE, ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR}) "
        "@Retention(RetentionPolicy.RUNTIME) public @interface NullUnmarked {}\n",
}


def java_files(corpus):
    out = subprocess.run(["rg", "--files", "-g", "*.java"], cwd=corpus, capture_output=True, check=True).stdout
    files = (p[2:] if p.startswith("./") else p for p in out.decode().splitlines())
    return sorted(p for p in files if os.path.basename(p) != "module-info.java")


def build():
    """Compiles OracleJava.java and the annotation stubs into WORK (when stale)."""
    classes, stubs = os.path.join(WORK, "classes"), os.path.join(WORK, "stubs")
    src = os.path.join(HERE, "OracleJava.java")
    cls = os.path.join(classes, "OracleJava.class")
    if not os.path.exists(cls) or os.path.getmtime(cls) < os.path.getmtime(src):
        os.makedirs(classes, exist_ok=True)
        subprocess.run(["javac", "-d", classes, src], check=True)
    stub_classes = os.path.join(stubs, "classes")
    if not os.path.isdir(stub_classes):
        paths = []
        for rel, text in STUBS.items():
            p = os.path.join(stubs, "src", rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            open(p, "w").write(text)
            paths.append(p)
        subprocess.run(["javac", "-d", stub_classes] + paths, check=True)
    return classes, stub_classes


def classpath(stub_classes):
    cp = [stub_classes]
    for j in JARS:
        p = f"/usr/share/java/{j}.jar"
        if os.path.exists(p):
            cp.append(p)
        else:
            print(f"oracle_java.py: {p} missing (apt-get install junit5 libgoogle-gson-java libnetty-java "
                  f"libre2j-java); its users stay unresolved", file=sys.stderr)
    return ":".join(cp)


def dump(corpus, force=False):
    """The javac dump of the corpus: defs, calls, unresolved (cached)."""
    os.makedirs(WORK, exist_ok=True)
    f = os.path.join(WORK, os.path.basename(corpus.rstrip("/")) + ".javac.json")
    if os.path.exists(f) and not force:
        return json.load(open(f))
    classes, stubs = build()
    files = java_files(corpus)
    argfile = f + ".args"
    # an @argfile keeps the command line short: java reads it (JDK 9+)
    with open(argfile, "w") as a:
        for x in ["-cp", classes, "OracleJava", corpus, f, classpath(stubs)] + files:
            a.write('"' + x.replace("\\", "\\\\").replace('"', '\\"') + '"\n')
    t0 = time.time()
    subprocess.run(["java", "-Xss8m", "@" + argfile], check=True)
    print(f"javac over {len(files)} files: {time.time() - t0:.0f}s", file=sys.stderr)
    return json.load(open(f))


def all_defs(corpus):
    return [dict(d, eligible=eligible(d)) for d in dump(corpus)["defs"]]


def eligible(d):
    """Classes and records (not interfaces, enums, annotations), and methods with a body,
    of top-level or member types (not of local or anonymous classes)."""
    if d["qualname"].startswith("<"):
        return False
    if d["kind"] == "class":
        return d["tkind"] in ("CLASS", "RECORD")
    return d["body"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", nargs="?")
    ap.add_argument("targets", nargs="?")
    ap.add_argument("--out")
    ap.add_argument("--defs", metavar="CORPUS")
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args()
    if a.defs:
        json.dump(all_defs(os.path.abspath(a.defs)), sys.stdout)
        return
    corpus = os.path.abspath(a.corpus)
    targets = [t for t in json.load(open(a.targets)) if t["lang"] == "java"]
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
            u = unres.get(("new:" if t["kind"] == "class" else "") + t["name"], 0)
            cache[t["spec"]] = {"sites": sorted(sites), "ambiguous": [], "unresolved": u}
            print(f"{t['spec']}: {len(sites)} sites, {u} unresolved calls of the name", file=sys.stderr)
    json.dump({"tool": d["tool"], "corpus": corpus, "errors": d["errors"], "calls_total": len(d["calls"]),
               "unresolved_total": len(d["unresolved"]), "targets": cache}, open(a.out, "w"), indent=1)


if __name__ == "__main__":
    main()
