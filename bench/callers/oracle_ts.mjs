#!/usr/bin/env node
// Call-site oracle for TypeScript/JavaScript, from the TypeScript 5.9
// language service (benchmark tooling, not part of scout).
//
//   node bench/callers/oracle_ts.mjs CORPUS TARGETS.json --out CACHE.json [--force]
//   node bench/callers/oracle_ts.mjs --defs CORPUS        (definitions, JSON on stdout)
//
// typescript is loaded from $ORACLE_TS (default /tmp/oracle-ts), where
// `npm install typescript@5.9` put it. One program holds every
// .ts/.tsx/.js/.jsx/.mts/.cts file that `rg --files` lists (so .gitignore
// applies) with the compiler options of CORPUS/tsconfig.json (its `paths`
// and `baseUrl` resolve monorepo aliases; missing third-party modules stay
// unresolved). For each target (lang "ts"), findReferences runs at the
// target's name; only the reference group whose definition is the target's
// own name is kept (plus groups for renaming import aliases of it), so
// interface members, base-class methods and sibling overrides are dropped.
// A reference is a call site when the name (or `obj.name`, through
// parentheses and `!`) is the callee of a call, of `new`, the tag of a
// tagged template, or the tag name of a JSX opening / self-closing element.
// Cache entries: {"sites": [[path, line]], "ambiguous": [], "references": N}.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";

const require = createRequire(path.join(process.env.ORACLE_TS || "/tmp/oracle-ts", "noop.js"));
const ts = require("typescript");

const EXT = /\.(ts|tsx|js|jsx|mts|cts|mjs|cjs)$/;

function listFiles(corpus) {
  const out = execFileSync("rg", ["--files", "-g", "*.{ts,tsx,js,jsx,mts,cts,mjs,cjs}"], {
    cwd: corpus, maxBuffer: 1 << 28,
  }).toString();
  return out.split("\n").filter((p) => EXT.test(p)).map((p) => p.replace(/^\.\//, "")).sort();
}

function lineOf(sf, pos) {
  return sf.getLineAndCharacterOfPosition(pos).line + 1;
}

function defs(corpus) {
  const out = [];
  const bases = new Set(); // class names some class extends
  const returned = new Set(); // type names some function declares it returns
  const typeName = (t) => {
    while (t && ts.isTypeReferenceNode(t) && t.typeName.getText() === "Promise" && t.typeArguments) t = t.typeArguments[0];
    if (t && ts.isUnionTypeNode(t)) t = t.types[0];
    return t && ts.isTypeReferenceNode(t) ? t.typeName.getText().split(".").pop() : null;
  };
  for (const rel of listFiles(corpus)) {
    const text = fs.readFileSync(path.join(corpus, rel), "utf8");
    if (text.length > 2_000_000) continue;
    const kindOf = /\.(tsx|jsx)$/.test(rel) ? ts.ScriptKind.TSX : undefined;
    const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, kindOf);
    const dts = rel.endsWith(".d.ts");
    const isTop = (n) => ts.isSourceFile(n.parent) || ts.isModuleBlock(n.parent);
    const fnKind = (name) => (/^[A-Z]/.test(name) && /\.(tsx|jsx)$/.test(rel) ? "component" : "function");
    // The qualified name of the named functions around `n` (`outer`, `Class.method`), or
    // null when one of them is anonymous (a callback) or a class is nested.
    const outerOf = (n) => {
      const names = [];
      for (let p = n.parent; p && !ts.isSourceFile(p); p = p.parent) {
        if (ts.isFunctionDeclaration(p)) {
          if (!p.name) return null;
          names.unshift(p.name.text);
        } else if (ts.isArrowFunction(p) || ts.isFunctionExpression(p)) {
          const v = p.parent;
          if (!(ts.isVariableDeclaration(v) && ts.isIdentifier(v.name) && v.initializer === p)) return null;
          names.unshift(v.name.text);
          p = v;
        } else if (ts.isMethodDeclaration(p) || ts.isConstructorDeclaration(p)) {
          const c = p.parent;
          if (!(ts.isClassDeclaration(c) && c.name && isTop(c)) || !p.name || !ts.isIdentifier(p.name)) return null;
          names.unshift(`${c.name.text}.${p.name.text}`);
          break;
        } else if (ts.isClassLike(p)) {
          return null;
        }
      }
      return names.length ? names.join(".") : null;
    };
    const add = (nameNode, name, qualname, kind, eligible, extra = {}) => {
      const start = nameNode.getStart(sf);
      const lc = sf.getLineAndCharacterOfPosition(start);
      out.push({ path: rel, name, qualname, kind, line: lc.line + 1, col: lc.character, eligible: eligible && !dts, ...extra });
    };
    const nested = (n, name) => {
      if (isTop(n)) return [name, {}];
      const outer = outerOf(n);
      return outer ? [`${outer}.${name}`, { nested: !dts }] : [name, {}];
    };
    const visit = (n) => {
      if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n)) && n.type) {
        const t = typeName(n.type);
        if (t) returned.add(t);
      }
      if (ts.isFunctionDeclaration(n) && n.name && n.body) {
        const [qual, extra] = nested(n, n.name.text);
        add(n.name, n.name.text, qual, fnKind(n.name.text), isTop(n), extra);
      } else if (ts.isVariableStatement(n)) {
        for (const d of n.declarationList.declarations) {
          if (ts.isIdentifier(d.name) && d.initializer &&
              (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))) {
            const [qual, extra] = nested(n, d.name.text);
            add(d.name, d.name.text, qual, fnKind(d.name.text), isTop(n), extra);
          }
        }
      } else if (ts.isClassDeclaration(n) && n.name) {
        const cls = n.name.text;
        add(n.name, cls, cls, "class", isTop(n));
        for (const h of n.heritageClauses || []) {
          if (h.token === ts.SyntaxKind.ExtendsKeyword) {
            for (const t of h.types) bases.add(t.expression.getText(sf).split(".").pop());
          }
        }
        for (const m of n.members) {
          const isFnProp = ts.isPropertyDeclaration(m) && m.initializer &&
            (ts.isArrowFunction(m.initializer) || ts.isFunctionExpression(m.initializer));
          if ((ts.isMethodDeclaration(m) && m.body) || isFnProp) {
            if (ts.isIdentifier(m.name)) add(m.name, m.name.text, `${cls}.${m.name.text}`, "method", isTop(n), { cls });
          }
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  for (const d of out) {
    if (d.cls) {
      d.base = bases.has(d.cls);
      d.factory = returned.has(d.cls);
      delete d.cls;
    }
  }
  return out;
}

function findNode(sf, pos) {
  let node = sf;
  for (;;) {
    let next;
    ts.forEachChild(node, (c) => {
      if (!next && c.getStart(sf) <= pos && pos < c.end) next = c;
    });
    if (!next) return node;
    node = next;
  }
}

function isCall(id) {
  let e = id;
  const p0 = e.parent;
  if (p0 && ts.isPropertyAccessExpression(p0) && p0.name === e) e = p0;
  while (e.parent && (ts.isParenthesizedExpression(e.parent) || ts.isNonNullExpression(e.parent))) e = e.parent;
  const p = e.parent;
  if (!p) return false;
  if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression === e) return true;
  if (ts.isTaggedTemplateExpression(p) && p.tag === e) return true;
  if ((ts.isJsxOpeningElement(p) || ts.isJsxSelfClosingElement(p)) && p.tagName === e) return true;
  return false;
}

function oracle(corpus, targetsFile, outFile, force) {
  const targets = JSON.parse(fs.readFileSync(targetsFile, "utf8")).filter((t) => t.lang === "ts");
  let cache = {};
  if (fs.existsSync(outFile) && !force) cache = JSON.parse(fs.readFileSync(outFile, "utf8")).targets || {};
  const todo = targets.filter((t) => !(t.spec in cache));
  if (todo.length) {
    const cfgPath = path.join(corpus, "tsconfig.json");
    let options = { allowJs: true, jsx: ts.JsxEmit.ReactJSX, target: ts.ScriptTarget.ESNext };
    let names = [];
    if (fs.existsSync(cfgPath)) {
      const cfg = ts.readConfigFile(cfgPath, ts.sys.readFile);
      const parsed = ts.parseJsonConfigFileContent(cfg.config, ts.sys, corpus);
      options = { ...parsed.options, allowJs: true, noEmit: true };
      names = parsed.fileNames;
    }
    const all = new Set([...names.map((f) => path.resolve(f)), ...listFiles(corpus).map((f) => path.join(corpus, f))]);
    const host = {
      getScriptFileNames: () => [...all],
      getScriptVersion: () => "0",
      getScriptSnapshot: (f) => (fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, "utf8")) : undefined),
      getCurrentDirectory: () => corpus,
      getCompilationSettings: () => options,
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: ts.sys.fileExists, readFile: ts.sys.readFile, readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists, getDirectories: ts.sys.getDirectories,
    };
    const ls = ts.createLanguageService(host, ts.createDocumentRegistry());
    const program = ls.getProgram();
    const t0 = Date.now();
    todo.forEach((t, i) => {
      const file = path.join(corpus, t.path);
      const sf = program.getSourceFile(file);
      const lineStart = sf.getPositionOfLineAndCharacter(t.line - 1, 0);
      let col = t.col;
      if (col === undefined) {
        const m = new RegExp(`\\b${t.name}\\b`).exec(sf.text.slice(lineStart).split("\n")[0]);
        col = m ? m.index : 0;
      }
      const pos = lineStart + col;
      const groups = ls.findReferences(file, pos) || [];
      const sites = new Set();
      let nrefs = 0;
      for (const g of groups) {
        const d = g.definition;
        const own = path.resolve(d.fileName) === file && d.textSpan.start === pos;
        if (!own && d.kind !== "alias") continue;
        for (const r of g.references) {
          nrefs++;
          if (r.isDefinition) continue;
          const rsf = program.getSourceFile(r.fileName);
          const node = findNode(rsf, r.textSpan.start);
          if (!ts.isIdentifier(node) && !ts.isPrivateIdentifier(node)) continue;
          if (isCall(node)) sites.add(`${path.relative(corpus, r.fileName)}\t${lineOf(rsf, r.textSpan.start)}`);
        }
      }
      const list = [...sites].map((s) => { const [p, l] = s.split("\t"); return [p, Number(l)]; })
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
      cache[t.spec] = { sites: list, ambiguous: [], references: nrefs };
      console.error(`[${i + 1}/${todo.length}] ${t.spec}: ${list.length} sites of ${nrefs} references (${((Date.now() - t0) / 1000).toFixed(0)}s)`);
    });
  }
  fs.writeFileSync(outFile, JSON.stringify({ tool: `typescript ${ts.version}`, corpus, targets: cache }, null, 1));
}

const args = process.argv.slice(2);
if (args[0] === "--defs") {
  process.stdout.write(JSON.stringify(defs(path.resolve(args[1]))));
} else {
  const o = args.indexOf("--out");
  if (o < 0 || args.length < 4) {
    console.error("usage: oracle_ts.mjs CORPUS TARGETS.json --out CACHE.json [--force] | --defs CORPUS");
    process.exit(2);
  }
  const out = args[o + 1];
  const rest = args.filter((a, i) => i !== o && i !== o + 1 && a !== "--force");
  oracle(path.resolve(rest[0]), rest[1], out, args.includes("--force"));
}
