// Command oracle_go dumps the definitions and the bound calls of a Go tree,
// typed by go/types (benchmark tooling, not part of scout; see oracle_go.py).
//
//	go run oracle_go.go CORPUS OUT.json < FILES
//
// FILES is one path per line, relative to CORPUS (what `rg --files -t go`
// lists). Each directory's files, filtered by their build constraints for
// linux/amd64, make a package; its in-package tests are checked with it and
// its _test package apart. Imports inside the tree are resolved by the
// module paths of the tree's go.mod files and checked from source; the
// standard library comes from GOROOT's source; anything else is missing,
// so what it declares stays untyped. A call site is a call expression whose
// callee (a name or a selector, generic instantiation stripped) go/types
// binds to a function or method: a call through an interface binds to the
// interface's method, a call of a promoted method to the embedded type's.
// The line is the callee name's. Definitions are keyed by the position of
// their name, PATH:LINE:COL.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

type def struct {
	Path     string `json:"path"`
	Name     string `json:"name"`
	Qualname string `json:"qualname"`
	Kind     string `json:"kind"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Key      string `json:"key"`
	Test     bool   `json:"test"`
	Recv     string `json:"recv,omitempty"`
	Base     bool   `json:"base"`
	Factory  bool   `json:"factory"`
}

type dump struct {
	Tool       string   `json:"tool"`
	Errors     int      `json:"errors"`
	Packages   int      `json:"packages"`
	Defs       []def    `json:"defs"`
	Calls      [][3]any `json:"calls"`
	Unresolved [][3]any `json:"unresolved"`
	Missing    []string `json:"missing_imports"`
}

type oracle struct {
	root    string
	fset    *token.FileSet
	ctxt    build.Context
	listed  map[string]bool      // absolute paths rg listed
	modules map[string]string    // module path -> absolute dir
	parsed  map[string]*ast.File // absolute path -> syntax
	pkgs    map[string]*types.Package
	busy    map[string]bool
	std     types.Importer
	missing map[string]bool
	errors  int
}

func (o *oracle) rel(p string) string {
	r, err := filepath.Rel(o.root, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(r)
}

func (o *oracle) parse(paths []string) []*ast.File {
	var out []*ast.File
	for _, p := range paths {
		f, ok := o.parsed[p]
		if !ok {
			var err error
			f, err = parser.ParseFile(o.fset, p, nil, parser.ParseComments|parser.AllErrors)
			if err != nil {
				o.errors++
			}
			o.parsed[p] = f
		}
		if f != nil {
			out = append(out, f)
		}
	}
	return out
}

// dirOf is the directory of an import path inside the tree, by the longest module path.
func (o *oracle) dirOf(path string) (string, bool) {
	best, dir := "", ""
	for m, d := range o.modules {
		if (path == m || strings.HasPrefix(path, m+"/")) && len(m) > len(best) {
			best, dir = m, filepath.Join(d, strings.TrimPrefix(path, m))
		}
	}
	return dir, best != ""
}

// files are the listed files of one directory's package, by build constraints.
func (o *oracle) files(dir string) (gofiles, tests, xtests []string) {
	bp, err := o.ctxt.ImportDir(dir, 0)
	if bp == nil || (err != nil && len(bp.GoFiles)+len(bp.TestGoFiles)+len(bp.XTestGoFiles) == 0) {
		return
	}
	keep := func(names []string) []string {
		var out []string
		for _, n := range names {
			if p := filepath.Join(dir, n); o.listed[p] {
				out = append(out, p)
			}
		}
		return out
	}
	return keep(bp.GoFiles), keep(bp.TestGoFiles), keep(bp.XTestGoFiles)
}

func (o *oracle) config() *types.Config {
	return &types.Config{Importer: o, FakeImportC: true, Error: func(error) { o.errors++ }}
}

func (o *oracle) Import(path string) (*types.Package, error) {
	if p, ok := o.pkgs[path]; ok {
		if p == nil {
			return nil, fmt.Errorf("%s is missing", path)
		}
		return p, nil
	}
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if dir, ok := o.dirOf(path); ok {
		if o.busy[path] {
			return nil, fmt.Errorf("import cycle through %s", path)
		}
		o.busy[path] = true
		gofiles, _, _ := o.files(dir)
		pkg, _ := o.config().Check(path, o.fset, o.parse(gofiles), nil)
		o.pkgs[path] = pkg
		return pkg, nil
	}
	if first := strings.SplitN(path, "/", 2)[0]; !strings.Contains(first, ".") {
		if pkg, err := o.std.Import(path); err == nil {
			o.pkgs[path] = pkg
			return pkg, nil
		}
	}
	o.pkgs[path] = nil
	o.missing[path] = true
	return nil, fmt.Errorf("%s is missing", path)
}

func recvName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		case *ast.SelectorExpr:
			return t.Sel.Name
		default:
			return "?"
		}
	}
}

func (o *oracle) key(pos token.Pos) string {
	p := o.fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", o.rel(p.Filename), p.Line, p.Column)
}

func main() {
	root, _ := filepath.Abs(os.Args[1])
	o := &oracle{root: root, fset: token.NewFileSet(), ctxt: build.Default, listed: map[string]bool{},
		modules: map[string]string{}, parsed: map[string]*ast.File{}, pkgs: map[string]*types.Package{},
		busy: map[string]bool{}, missing: map[string]bool{}}
	o.ctxt.GOOS, o.ctxt.GOARCH, o.ctxt.CgoEnabled = "linux", "amd64", false
	o.std = importer.ForCompiler(o.fset, "source", nil)
	dirs := map[string]bool{}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		p := filepath.Join(root, strings.TrimPrefix(sc.Text(), "./"))
		o.listed[p] = true
		dirs[filepath.Dir(p)] = true
	}
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Name() == "go.mod" {
			data, _ := os.ReadFile(p)
			for _, line := range strings.Split(string(data), "\n") {
				if f := strings.Fields(line); len(f) >= 2 && f[0] == "module" {
					o.modules[strings.Trim(f[1], `"`)] = filepath.Dir(p)
				}
			}
		}
		return nil
	})
	var out dump
	out.Tool = "go/types " + runtime.Version()
	seen := map[string]bool{}
	// Type names embedded in a struct, and returned first of several results.
	embedded, returned := map[string]bool{}, map[string]bool{}
	sorted := make([]string, 0, len(dirs))
	for d := range dirs {
		sorted = append(sorted, d)
	}
	sort.Strings(sorted)
	for _, dir := range sorted {
		gofiles, tests, xtests := o.files(dir)
		for i, set := range [][]string{append(append([]string{}, gofiles...), tests...), xtests} {
			if len(set) == 0 {
				continue
			}
			files := o.parse(set)
			info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
			o.config().Check(o.rel(dir)+[]string{"", "_test"}[i], o.fset, files, info)
			out.Packages++
			for _, f := range files {
				path := o.rel(o.fset.Position(f.Pos()).Filename)
				if !seen[path] {
					seen[path] = true
					for _, d := range f.Decls {
						fd, ok := d.(*ast.FuncDecl)
						if !ok || fd.Body == nil {
							continue
						}
						p := o.fset.Position(fd.Name.Pos())
						df := def{Path: path, Name: fd.Name.Name, Qualname: fd.Name.Name, Kind: "function",
							Line: p.Line, Col: p.Column, Key: o.key(fd.Name.Pos()), Test: strings.HasSuffix(path, "_test.go")}
						if fd.Recv != nil && len(fd.Recv.List) == 1 {
							df.Recv = recvName(fd.Recv.List[0].Type)
							df.Kind, df.Qualname = "method", df.Recv+"."+fd.Name.Name
						}
						if r := fd.Type.Results; r != nil && r.NumFields() >= 2 {
							returned[recvName(r.List[0].Type)] = true
						}
						out.Defs = append(out.Defs, df)
					}
				}
				ast.Inspect(f, func(n ast.Node) bool {
					if st, ok := n.(*ast.StructType); ok {
						for _, field := range st.Fields.List {
							if len(field.Names) == 0 {
								embedded[recvName(field.Type)] = true
							}
						}
					}
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					fun := call.Fun
					for {
						switch t := fun.(type) {
						case *ast.ParenExpr:
							fun = t.X
							continue
						case *ast.IndexExpr:
							fun = t.X
							continue
						case *ast.IndexListExpr:
							fun = t.X
							continue
						}
						break
					}
					var id *ast.Ident
					switch t := fun.(type) {
					case *ast.Ident:
						id = t
					case *ast.SelectorExpr:
						id = t.Sel
					default:
						return true
					}
					line := o.fset.Position(id.Pos()).Line
					switch obj := info.Uses[id].(type) {
					case *types.Func:
						out.Calls = append(out.Calls, [3]any{o.key(obj.Pos()), path, line})
					case nil:
						out.Unresolved = append(out.Unresolved, [3]any{id.Name, path, line})
					}
					return true
				})
			}
		}
	}
	for i := range out.Defs {
		d := &out.Defs[i]
		d.Base, d.Factory = embedded[d.Recv], returned[d.Recv]
	}
	out.Errors = o.errors
	for m := range o.missing {
		out.Missing = append(out.Missing, m)
	}
	sort.Strings(out.Missing)
	data, _ := json.Marshal(out)
	if err := os.WriteFile(os.Args[2], data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "%d packages, %d defs, %d calls bound, %d unresolved, %d type errors, %d imports missing\n",
		out.Packages, len(out.Defs), len(out.Calls), len(out.Unresolved), out.Errors, len(out.Missing))
}
