package load

import (
	"go/ast"
	"go/parser"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Loading the packages under check's dependencies from source without a
// go command.
//
// The instrumenter rewrites the module's packages that the packages under
// check import (and a few of other modules): it needs their syntax and
// types. A packages.Load of them is a go list -export -deps and
// go/packages' two queries of the go command's context: three go commands
// per check, 0.6-0.7 s of CPU on conc at load 16, for what the load
// already has. The packages' listing (go list -deps) names every package
// of their import graph with its files, imports and module; the types of
// those packages' imports come from export data in the load's own go list
// (SourceDeps names which); so LoadFromSource parses and type-checks them
// as go/packages would, in the order go list would list them.

// sourceDeps is what loadSource keeps for LoadFromSource.
type sourceDeps struct {
	graph  map[string]*packages.Package // the roots' import graph as listed, by ID (plain packages: ID = PkgPath)
	export map[string]*types.Package    // types of imports read from export data, by ID
	roots  map[string]bool              // the roots' package paths
	sizes  types.Sizes
}

// listing returns the packages of the roots' import graph, by ID, that
// are no test variants.
func listing(roots []*packages.Package) map[string]*packages.Package {
	graph := map[string]*packages.Package{}
	packages.Visit(roots, func(p *packages.Package) bool {
		if graph[p.ID] != nil {
			return false
		}
		if !strings.Contains(p.ID, " ") && !strings.HasSuffix(p.ID, ".test") {
			graph[p.ID] = p
		}
		return true
	}, nil)
	return graph
}

// LoadFromSource loads the packages at paths, which the packages under
// check import, from source without their tests, as packages.Load with
// Mode and the same file set would (the packages at paths from source,
// their other imports from export data), in the order it would give them,
// without running the go command. It reports false when it cannot: the
// packages were loaded the go/packages way, a package is not in their
// import graph or is one of them, has errors or cgo files, or an import's
// types were not read (SourceDeps did not name the package); the caller
// then loads them with packages.Load. A package that does not type-check
// is returned with its Errors, as packages.Load returns it.
func (p *Packages) LoadFromSource(paths []string) ([]*packages.Package, bool) {
	if p == nil || p.src == nil || len(paths) == 0 {
		return nil, false
	}
	s := p.src
	want := map[string]bool{}
	for _, path := range paths {
		want[path] = true
	}
	for path := range want {
		l := s.graph[path]
		if l == nil || s.roots[path] || len(l.Errors) > 0 || l.Module == nil ||
			len(l.CompiledGoFiles) == 0 || !slices.Equal(l.GoFiles, l.CompiledGoFiles) {
			return nil, false // cgo: CompiledGoFiles are cgo's output
		}
		for _, imp := range l.Imports {
			if imp.ID != "unsafe" && !want[imp.ID] && s.export[imp.ID] == nil {
				return nil, false
			}
		}
	}
	// go list -deps lists in post-order of a walk from the patterns in
	// their order, each package's imports in path order; go/packages
	// returns the patterns' packages in that order.
	var order []*packages.Package
	seen := map[string]bool{}
	var walk func(l *packages.Package)
	walk = func(l *packages.Package) {
		if seen[l.ID] {
			return
		}
		seen[l.ID] = true
		keys := make([]string, 0, len(l.Imports))
		for k := range l.Imports {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			walk(l.Imports[k])
		}
		if want[l.ID] {
			order = append(order, l)
		}
	}
	for _, path := range paths {
		walk(s.graph[path])
	}
	loaded := map[string]*packages.Package{}
	out := make([]*packages.Package, 0, len(order))
	for _, l := range order {
		c := *l
		c.Fset = p.Fset
		c.TypesSizes = s.sizes
		c.Errors = slices.Clone(l.Errors)
		c.Syntax = make([]*ast.File, 0, len(l.CompiledGoFiles))
		for _, name := range l.CompiledGoFiles {
			// go/packages' mode: AllErrors, comments, objects resolved.
			f, err := parser.ParseFile(p.Fset, name, nil, parser.AllErrors|parser.ParseComments)
			if f != nil {
				c.Syntax = append(c.Syntax, f)
			}
			if err != nil {
				c.Errors = append(c.Errors, packages.Error{Pos: name + ":1", Msg: err.Error(), Kind: packages.ParseError})
			}
		}
		// The imports as go/packages gives them: with their types.
		c.Imports = make(map[string]*packages.Package, len(l.Imports))
		for k, imp := range l.Imports {
			if d := loaded[imp.ID]; d != nil {
				c.Imports[k] = d
				continue
			}
			d := *imp
			switch {
			case imp.ID == "unsafe":
				d.Types = types.Unsafe
			default:
				d.Types = s.export[imp.ID]
			}
			c.Imports[k] = &d
		}
		typeCheck(p.Fset, &c, func(id string) *types.Package {
			if d := loaded[id]; d != nil {
				return d.Types
			}
			return s.export[id]
		})
		loaded[c.ID] = &c
		out = append(out, &c)
	}
	return out, true
}
