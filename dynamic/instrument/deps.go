package instrument

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/pecanvet/pecanvet/static/load"
)

// moduleDeps returns the import paths of the packages that pkgs import,
// directly or through each other, other than pkgs themselves, that are
// instrumented too (without their tests): mine, the main module's,
// recorded whole, and others, those of other modules that start
// goroutines (see below), for their goroutines and synchronization only
// (rt.RegisterQuiet, unit.quiet). A goroutine that a helper package of
// the module starts, or a lock it takes, is otherwise invisible to the
// trace, and so to happens-before; an access it makes for the checked
// package's goroutines is a race of theirs that go test -race reports.
// conc's pool starts its workers through the module's root package
// (conc.WaitGroup), and every schedule that put a worker's first step
// before the call starting it deadlocked in replay, for the quiet bound
// each. others is left empty unless withOthers.
//
// Packages of other modules (not the standard library) are instrumented
// when a go statement of theirs runs a function the caller passed in
// (runsCallersFuncs), so that a goroutine such a package starts for the
// user's code is forked in the trace and named after its
// parent ("g1.1.2"), the same in every run. Left out, it was a root
// named by the order of its first event ("g3"), which a replay that
// moves that event does not reproduce: juniper's parallel.MapStream
// starts its workers through x/sync's errgroup, and the replays of its
// tests' 60 predictions waited for "g3 has not started (started outside
// instrumented code)" until the deadlock bound, or were pruned behind
// those. Other packages stay as they are: rewriting every dependency
// (issue 30's bound on build time) would buy only their locks' edges.
func moduleDeps(cfg *packages.Config, pkgs []*packages.Package, mod *packages.Module, withOthers bool) (mine, others []string) {
	have := map[string]bool{}
	for _, p := range pkgs {
		// "p_test" too: the test main's import of the external test
		// package is no dependency to load (pubsub's checks listed
		// github.com/cskr/pubsub_test for nothing).
		have[p.PkgPath] = true
		have[strings.TrimSuffix(p.PkgPath, "_test")] = true
	}
	inModule := func(path string) bool {
		return path == mod.Path || strings.HasPrefix(path, mod.Path+"/")
	}
	var roots []string
	var listed []*packages.Package // roots' packages as the packages' load listed them
	seen := map[string]bool{}
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			id, _, _ := strings.Cut(imp.ID, " ")
			if have[id] || seen[id] || !inModule(id) && (!withOthers || isStd(id)) {
				continue
			}
			seen[id] = true
			roots = append(roots, id)
			listed = append(listed, imp)
		}
	}
	if len(roots) == 0 {
		return nil, nil
	}
	// The packages' own load listed their whole import graph (go list
	// -deps) with names, files, imports and modules: walk that rather
	// than list the roots again (a go list and go/packages' own
	// ReleaseTags query, 0.2-0.3 s of CPU and 1-1.5 s of wall at load 30
	// per conc check). An import only an extra file (a generated driver)
	// brought in is a stub without its listing: then list them.
	deps := listed
	for _, p := range listed {
		if !hasListing(p) {
			deps = nil
			break
		}
	}
	if deps == nil && cfg == nil {
		return nil, nil // SourceDeps: nothing to plan with
	}
	if deps == nil {
		// Names, files and imports only: no type-checking, one go list.
		quick := *cfg
		quick.Mode = packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule
		quick.Tests = false
		quick.Fset = nil
		var err error
		if deps, err = packages.Load(&quick, roots...); err != nil {
			return nil, nil
		}
	}
	packages.Visit(deps, nil, func(p *packages.Package) {
		m := p.Module
		if have[p.PkgPath] || m == nil || len(p.Errors) > 0 {
			return
		}
		have[p.PkgPath] = true
		switch {
		case m.Main && m.Path == mod.Path:
			mine = append(mine, p.PkgPath)
		case withOthers && !m.Main && !inModule(p.PkgPath) && runsCallersFuncs(p.GoFiles):
			others = append(others, p.PkgPath)
		}
	})
	sort.Strings(mine)
	sort.Strings(others)
	return mine, others
}

// hasListing reports whether p is a package as go list described it
// (its module, its files, its imports), not a stub holding only its ID
// and types.
func hasListing(p *packages.Package) bool {
	return p.Module != nil && p.PkgPath != "" && (len(p.GoFiles) > 0 || len(p.CompiledGoFiles) > 0 || len(p.Errors) > 0)
}

// SourceDeps is the plan for load.LoadFor: the packages moduleDeps
// will name, as the packages' listing shows them, whose imports' types
// the load then reads with its own, so that loadDeps needs no go command.
func SourceDeps(buildFlags []string) load.SourceDeps {
	return func(roots []*packages.Package) []string {
		mod := mainModule(roots)
		if mod == nil {
			return nil
		}
		mine, others := moduleDeps(nil, roots, mod, !vendored(mod, buildFlags))
		return append(mine, others...)
	}
}

// mainModule is the module selectFiles takes as the main one, from the
// packages' listing (before they have types).
func mainModule(pkgs []*packages.Package) *packages.Module {
	var best *packages.Package
	for _, p := range pkgs {
		if p.Module == nil || !p.Module.Main || strings.HasSuffix(p.ID, ".test") {
			continue
		}
		if best == nil || better(p, best) {
			best = p
		}
	}
	if best == nil {
		return nil
	}
	return best.Module
}

// better is selectFiles' order: test variants first, then by ID.
func better(a, b *packages.Package) bool {
	ta, tb := strings.Contains(a.ID, " ["), strings.Contains(b.ID, " [")
	if ta != tb {
		return ta
	}
	return a.ID < b.ID
}

// fromSource lets a test load the dependencies with packages.Load, to
// compare.
var fromSource = true

// loadDeps loads the packages at paths for instrumenting, without their
// tests: from the load's listing and export data when it can
// (load.Packages.LoadFromSource), else with packages.Load. A package that
// does not load is left out: it stays as it is.
func loadDeps(loaded *load.Packages, cfg *packages.Config, paths []string) []*packages.Package {
	if len(paths) == 0 {
		return nil
	}
	pkgs, fast := []*packages.Package(nil), false
	if fromSource {
		pkgs, fast = loaded.LoadFromSource(paths)
	}
	if !fast {
		c := *cfg
		c.Tests = false
		var err error
		if pkgs, err = packages.Load(&c, paths...); err != nil {
			return nil
		}
	}
	var ok []*packages.Package
	for _, p := range pkgs {
		if len(p.Errors) == 0 && p.Types != nil {
			ok = append(ok, p)
		}
	}
	return ok
}

// isStd reports whether an import path is the standard library's: its
// first element has no dot (the go command's rule for module paths).
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// runsCallersFuncs reports whether a go statement in the files runs a
// function its caller passed in: it names a parameter of func type of a
// function around it (errgroup's Go(f), singleflight's DoChan(key, fn),
// testify's Eventually(condition)). That is the goroutine that runs the
// user's code; a package whose goroutines are its own (a server's
// connection readers, a flush daemon started at init) stays as it is:
// recording their locks and channels would lengthen every trace and give
// the predictor the package's internals to search, in the user's budget.
// Syntax only, no types: a parameter's type is a func literal type or a
// func type the package declares.
func runsCallersFuncs(files []string) bool {
	// names reports whether n refers to one of the names.
	names := func(n ast.Node, names map[string]bool) bool {
		found := false
		if len(names) > 0 {
			ast.Inspect(n, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok && names[id.Name] {
					found = true
				}
				return !found
			})
		}
		return found
	}
	var parsed []*ast.File
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil || !bytes.Contains(src, []byte("go ")) && !bytes.Contains(src, []byte(" func(")) {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
		if err == nil {
			parsed = append(parsed, f)
		}
	}
	funcTypes := map[string]bool{}
	for _, f := range parsed {
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				for _, sp := range gd.Specs {
					if ts := sp.(*ast.TypeSpec); ts != nil {
						if _, ok := ts.Type.(*ast.FuncType); ok {
							funcTypes[ts.Name.Name] = true
						}
					}
				}
			}
		}
	}
	isFunc := func(t ast.Expr) bool {
		switch t := t.(type) {
		case *ast.FuncType:
			return true
		case *ast.Ident:
			return funcTypes[t.Name]
		}
		return false
	}
	for _, f := range parsed {
		found := false
		// params: the func-typed parameters of the functions around the
		// node, innermost last.
		var visit func(n ast.Node, params map[string]bool) bool
		visit = func(n ast.Node, params map[string]bool) bool {
			ast.Inspect(n, func(n ast.Node) bool {
				if found || n == nil {
					return false
				}
				var ft *ast.FuncType
				var body *ast.BlockStmt
				switch n := n.(type) {
				case *ast.FuncDecl:
					ft, body = n.Type, n.Body
				case *ast.FuncLit:
					ft, body = n.Type, n.Body
				case *ast.GoStmt:
					if names(n.Call, params) {
						found = true
						return false
					}
				}
				if ft == nil || body == nil {
					return true
				}
				inner, cloned := params, false
				if ft.Params != nil {
					for _, fld := range ft.Params.List {
						if !isFunc(fld.Type) {
							continue
						}
						if !cloned {
							inner, cloned = maps.Clone(params), true
							if inner == nil {
								inner = map[string]bool{}
							}
						}
						for _, nm := range fld.Names {
							inner[nm.Name] = true
						}
					}
				}
				// A closure of the body that calls one of them carries
				// it too (testify's checkCond := func() { ch <-
				// condition() }; go checkCond()).
				for changed := len(inner) > 0; changed; {
					changed = false
					ast.Inspect(body, func(m ast.Node) bool {
						as, ok := m.(*ast.AssignStmt)
						if !ok || len(as.Lhs) != len(as.Rhs) {
							return true
						}
						for i, rhs := range as.Rhs {
							id, ok := as.Lhs[i].(*ast.Ident)
							if lit, isLit := rhs.(*ast.FuncLit); ok && isLit && !inner[id.Name] && names(lit.Body, inner) {
								if !cloned {
									inner, cloned = maps.Clone(inner), true
								}
								inner[id.Name], changed = true, true
							}
						}
						return true
					})
				}
				visit(body, inner)
				return false
			})
			return found
		}
		if visit(f, nil) {
			return true
		}
	}
	return false
}

// selectDeps makes a unit of each package of another module in pkgs
// (moduleDeps' others), with every file of it; a package with a cgo file is
// left out (cgo's generated files are not in GoFiles).
func selectDeps(pkgs []*packages.Package) []*unit {
	var units []*unit
	for _, p := range pkgs {
		if p.Module == nil || p.Module.Main {
			continue
		}
		u := &unit{pkg: p, dep: true, mod: p.Module}
		for _, f := range p.Syntax {
			name := p.Fset.File(f.Pos()).Name()
			if !isOriginal(p, name) {
				u = nil
				break
			}
			u.files = append(u.files, unitFile{path: name, syntax: f})
			if u.dir == "" {
				u.dir = filepath.Dir(name)
			}
		}
		if u == nil || len(u.files) == 0 || len(u.files) != len(p.GoFiles) {
			continue
		}
		sort.Slice(u.files, func(i, j int) bool { return u.files[i].path < u.files[j].path })
		units = append(units, u)
	}
	return units
}
