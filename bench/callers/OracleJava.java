// Call-site oracle for Java, from the JDK's own compiler (benchmark tooling,
// not part of scout). Compiled and run by oracle_java.py:
//
//   java -cp DIR OracleJava CORPUS OUT.json CLASSPATH FILE...
//
// One JavacTask parses and attributes every FILE (paths relative to CORPUS)
// against CLASSPATH, with -XDshould-stop.ifError=FLOW so that errors in one
// file (a missing test dependency) do not stop the attribution of the rest.
// OUT.json gets:
//   defs:       every class/interface/enum/record and every method declaration
//               {path, name, qualname, kind, line, col, key, body, nesting, tkind}
//   calls:      [key, path, line] for every resolved call: a MethodInvocation's
//               method (as javac binds it statically: the member of the
//               receiver's declared type, so calls through an interface or a
//               base class belong to that type's method) keyed
//               `BinaryClass#name(erased,param,types)`, and `new C(...)` keyed
//               `new:BinaryClass` (the class named after `new`, also when an
//               anonymous body follows)
//   unresolved: [name, path, line] for invocations javac could not bind
//   errors:     the number of error diagnostics
// `this(...)` / `super(...)` constructor chaining and method references
// (`C::m`) are not calls here. The line is that of the callee's name.
import com.sun.source.tree.*;
import com.sun.source.util.*;

import javax.lang.model.element.*;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.Types;
import javax.tools.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;

public class OracleJava {
    static StringBuilder out = new StringBuilder();
    static Trees trees;
    static Types types;
    static javax.lang.model.util.Elements elements;

    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    static String typeKey(TypeElement t) {
        return elements.getBinaryName(t).toString();
    }

    static String methodKey(ExecutableElement m) {
        Element owner = m.getEnclosingElement();
        String o = owner instanceof TypeElement ? typeKey((TypeElement) owner) : String.valueOf(owner);
        StringBuilder b = new StringBuilder(o).append('#').append(m.getSimpleName()).append('(');
        boolean first = true;
        for (VariableElement p : m.getParameters()) {
            if (!first) b.append(',');
            first = false;
            b.append(types.erasure(p.asType()).toString());
        }
        return b.append(')').toString();
    }

    /** 1-based line and 0-based column of `name` as a whole word at or after `from`. */
    static int[] nameAt(String src, LineMap lm, long from, String name) {
        int i = (int) Math.max(from, 0);
        while (true) {
            int j = src.indexOf(name, i);
            if (j < 0) break;
            boolean left = j == 0 || !Character.isJavaIdentifierPart(src.charAt(j - 1));
            int e = j + name.length();
            boolean right = e >= src.length() || !Character.isJavaIdentifierPart(src.charAt(e));
            if (left && right) return new int[]{(int) lm.getLineNumber(j), (int) lm.getColumnNumber(j) - 1};
            i = j + 1;
        }
        return new int[]{(int) lm.getLineNumber(from), (int) lm.getColumnNumber(from) - 1};
    }

    static final List<String> defs = new ArrayList<>(), calls = new ArrayList<>(), unresolved = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        Path corpus = Paths.get(args[0]);
        String outFile = args[1], cp = args[2];
        List<File> files = new ArrayList<>();
        for (int i = 3; i < args.length; i++) files.add(corpus.resolve(args[i]).toFile());
        JavaCompiler jc = ToolProvider.getSystemJavaCompiler();
        int[] errors = {0};
        DiagnosticListener<JavaFileObject> diag = d -> {
            if (d.getKind() == Diagnostic.Kind.ERROR && errors[0]++ < 20)
                System.err.println("javac error: " + d.getSource().getName() + ":" + d.getLineNumber() + ": "
                        + d.getMessage(null).split("\n")[0]);
        };
        StandardJavaFileManager fm = jc.getStandardFileManager(diag, null, StandardCharsets.UTF_8);
        List<String> opts = new ArrayList<>(Arrays.asList("-proc:none", "-implicit:none", "-encoding", "UTF-8",
                "-Xmaxerrs", "1000000", "-XDshould-stop.ifError=FLOW", "-XDshould-stop.at=FLOW"));
        if (!cp.isEmpty()) opts.addAll(Arrays.asList("-classpath", cp));
        JavacTask task = (JavacTask) jc.getTask(null, fm, diag, opts, null, fm.getJavaFileObjectsFromFiles(files));
        trees = Trees.instance(task);
        types = task.getTypes();
        elements = task.getElements();
        Iterable<? extends CompilationUnitTree> units = task.parse();
        task.analyze();
        SourcePositions pos = trees.getSourcePositions();
        for (CompilationUnitTree cu : units) {
            String rel = corpus.relativize(Paths.get(cu.getSourceFile().toUri())).toString();
            String src = cu.getSourceFile().getCharContent(true).toString();
            LineMap lm = cu.getLineMap();
            new TreePathScanner<Void, Void>() {
                final Deque<String> quals = new ArrayDeque<>();

                void site(List<String> into, String first, Tree nameTree, String name) {
                    long p = pos.getStartPosition(cu, nameTree);
                    if (nameTree instanceof MemberSelectTree) {
                        long end = pos.getEndPosition(cu, nameTree);
                        p = end > 0 ? end - name.length() : p;
                    }
                    int[] lc = nameAt(src, lm, p, name);
                    into.add("[" + q(first) + "," + q(rel) + "," + lc[0] + "]");
                }

                @Override
                public Void visitClass(ClassTree ct, Void v) {
                    Element e = trees.getElement(getCurrentPath());
                    String name = ct.getSimpleName().toString();
                    if (!(e instanceof TypeElement) || name.isEmpty()) {  // anonymous
                        quals.push("<anon>");
                        super.visitClass(ct, v);
                        quals.pop();
                        return null;
                    }
                    TypeElement te = (TypeElement) e;
                    String qual = quals.isEmpty() ? name : quals.peek() + "." + name;
                    NestingKind nk = te.getNestingKind();
                    if (nk == NestingKind.LOCAL || (!quals.isEmpty() && quals.peek().contains("<"))) qual = "<local>." + name;
                    // the name: the first whole word `name` after the modifiers (and so after the keyword)
                    int[] lc = nameAt(src, lm, Math.max(pos.getStartPosition(cu, ct),
                            pos.getEndPosition(cu, ct.getModifiers())), name);
                    def(name, qual, "class", lc, "new:" + typeKey(te), true, nk.toString(), te.getKind().toString());
                    quals.push(qual);
                    super.visitClass(ct, v);
                    quals.pop();
                    return null;
                }

                void def(String name, String qual, String kind, int[] lc, String key, boolean body, String nesting, String tkind) {
                    defs.add("{\"path\":" + q(rel) + ",\"name\":" + q(name) + ",\"qualname\":" + q(qual)
                            + ",\"kind\":" + q(kind) + ",\"line\":" + lc[0] + ",\"col\":" + lc[1]
                            + ",\"key\":" + q(key) + ",\"body\":" + body + ",\"nesting\":" + q(nesting)
                            + ",\"tkind\":" + q(tkind) + "}");
                }

                @Override
                public Void visitMethod(MethodTree mt, Void v) {
                    Element e = trees.getElement(getCurrentPath());
                    String name = mt.getName().toString();
                    if (e instanceof ExecutableElement && !name.equals("<init>") && !quals.isEmpty()) {
                        // the name: the first whole word `name` after the modifiers and the return type
                        long p = Math.max(pos.getStartPosition(cu, mt), pos.getEndPosition(cu, mt.getModifiers()));
                        if (mt.getReturnType() != null) p = Math.max(p, pos.getEndPosition(cu, mt.getReturnType()));
                        int[] lc = nameAt(src, lm, p, name);
                        Element owner = e.getEnclosingElement();
                        String nesting = owner instanceof TypeElement ? ((TypeElement) owner).getNestingKind().toString() : "?";
                        def(name, quals.peek() + "." + name, "method", lc, methodKey((ExecutableElement) e),
                                mt.getBody() != null, nesting, owner.getKind().toString());
                    }
                    return super.visitMethod(mt, v);
                }

                @Override
                public Void visitMethodInvocation(MethodInvocationTree mit, Void v) {
                    ExpressionTree sel = mit.getMethodSelect();
                    String name = sel instanceof IdentifierTree ? ((IdentifierTree) sel).getName().toString()
                            : sel instanceof MemberSelectTree ? ((MemberSelectTree) sel).getIdentifier().toString() : null;
                    if (name != null && !name.equals("this") && !name.equals("super")) {
                        Element e = trees.getElement(new TreePath(getCurrentPath(), sel));
                        if (e instanceof ExecutableElement && e.asType().getKind() != TypeKind.ERROR
                                && e.getEnclosingElement() instanceof TypeElement
                                && e.getEnclosingElement().asType().getKind() != TypeKind.ERROR) {
                            site(calls, methodKey((ExecutableElement) e), sel, name);
                        } else {
                            site(unresolved, name, sel, name);
                        }
                    }
                    return super.visitMethodInvocation(mit, v);
                }

                @Override
                public Void visitNewClass(NewClassTree nct, Void v) {
                    Tree id = nct.getIdentifier();
                    Tree named = id instanceof ParameterizedTypeTree ? ((ParameterizedTypeTree) id).getType() : id;
                    if (named instanceof AnnotatedTypeTree) named = ((AnnotatedTypeTree) named).getUnderlyingType();
                    String name = named instanceof IdentifierTree ? ((IdentifierTree) named).getName().toString()
                            : named instanceof MemberSelectTree ? ((MemberSelectTree) named).getIdentifier().toString() : null;
                    Tree parent = getCurrentPath().getParentPath().getLeaf();
                    if (parent instanceof VariableTree) {  // an enum constant: its `new` is implicit
                        Element pv = trees.getElement(getCurrentPath().getParentPath());
                        if (pv != null && pv.getKind() == ElementKind.ENUM_CONSTANT) name = null;
                    }
                    if (name != null) {
                        Element e = trees.getElement(new TreePath(getCurrentPath(), named));
                        if (e instanceof TypeElement && e.asType().getKind() != TypeKind.ERROR) {
                            site(calls, "new:" + typeKey((TypeElement) e), named, name);
                        } else {
                            site(unresolved, "new:" + name, named, name);
                        }
                    }
                    return super.visitNewClass(nct, v);
                }
            }.scan(cu, null);
        }
        try (Writer w = new OutputStreamWriter(new FileOutputStream(outFile), StandardCharsets.UTF_8)) {
            w.write("{\"tool\":" + q("javac " + System.getProperty("java.version")) + ",\"errors\":" + errors[0]
                    + ",\n\"defs\":[\n" + String.join(",\n", defs) + "],\n\"calls\":[\n" + String.join(",\n", calls)
                    + "],\n\"unresolved\":[\n" + String.join(",\n", unresolved) + "]}\n");
        }
        System.err.println("javac: " + files.size() + " files, " + defs.size() + " defs, " + calls.size()
                + " resolved calls, " + unresolved.size() + " unresolved, " + errors[0] + " errors");
    }
}
