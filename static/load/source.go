package load

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Type-checking the packages without compiling them.
//
// go/packages, asked for types without dependencies, runs go list with
// -export: the go command then compiles every listed package for its
// export data, the packages under check and their test variants too,
// although their types come from source. After a change to the package
// (the case of every check in CI or an editor) that is one or two
// compiles the check never reads: 0.4 s of CPU of pb's 0.5 s load, a
// tenth of its whole vet run. loadSource instead lists the packages
// without types (no -export), loads their dependencies' types from
// export data (compiled already: go vet builds them for its own run),
// and type-checks the packages from their syntax, as go/packages would.
//
// It covers the common shape only (and a package whose tests are all
// external ones), and says so (ok false) otherwise,
// for the caller to load the go/packages way: a listing with errors, a
// dependency recompiled for the tests ("q [p.test]", an import of the
// package under test from inside the module's other packages), a
// dependency that imports a package under check without being
// recompiled (p has external tests only, so q is plain q: its export
// data's p would be another p than the one checked from source, and
// p_test, handed both, would not type-check), or a dependency without
// export data.

// sourceMode is Mode without what makes go list compile.
const sourceMode = Mode &^ (packages.NeedTypes | packages.NeedTypesInfo)

func loadSource(cfg *packages.Config, patterns []string, plan SourceDeps) (list []*packages.Package, src *sourceDeps, ok bool, err error) {
	c := *cfg
	c.Mode = sourceMode
	// The imports' export data, listed beside the listing when they can
	// be guessed (ahead.go).
	ahead := listAhead(cfg, patterns)
	defer ahead.stop()
	roots, err := packages.Load(&c, patterns...)
	if err != nil {
		return nil, nil, false, err
	}
	isRoot := map[string]*packages.Package{}
	for _, p := range roots {
		isRoot[p.ID] = p
	}
	var depIDs []string
	seen := map[string]bool{}
	for _, p := range roots {
		// A package of external tests alone (Go's race testdata) lists
		// the package itself with no files: an empty package, which
		// go/packages would compile for its export data too.
		noFiles := len(p.GoFiles)+len(p.CompiledGoFiles)+len(p.OtherFiles)+len(p.IgnoredFiles) == 0
		if len(p.Errors) > 0 || len(p.Syntax) == 0 && !noFiles {
			return nil, nil, false, nil
		}
		for _, imp := range p.Imports {
			if isRoot[imp.ID] != nil || seen[imp.ID] || imp.ID == "unsafe" {
				continue
			}
			if strings.Contains(imp.ID, " ") {
				return nil, nil, false, nil
			}
			seen[imp.ID] = true
			depIDs = append(depIDs, imp.ID)
		}
	}
	// The imports of the packages plan names, for LoadFromSource: the
	// same go list gives their export data (they are in the roots'
	// import graph, which go list -export -deps compiles anyway).
	src = &sourceDeps{graph: listing(roots), roots: map[string]bool{}}
	for _, p := range roots {
		src.roots[p.PkgPath] = true
		if src.sizes == nil {
			src.sizes = p.TypesSizes
		}
	}
	var extraIDs []string
	if plan != nil {
		for _, path := range plan(roots) {
			l := src.graph[path]
			if l == nil {
				continue
			}
			for _, imp := range l.Imports {
				if isRoot[imp.ID] != nil || seen[imp.ID] || imp.ID == "unsafe" || strings.Contains(imp.ID, " ") {
					continue
				}
				seen[imp.ID] = true
				extraIDs = append(extraIDs, imp.ID)
			}
		}
	}
	deps := map[string]*types.Package{}
	src.export = map[string]*types.Package{}
	if len(depIDs)+len(extraIDs) > 0 {
		need := append(slices.Clone(depIDs), extraIDs...)
		ds, ok := ahead.covering(need)
		if !ok {
			exportListsAfter.Add(1)
			if ds, err = packages.Load(exportConfig(cfg), need...); err != nil {
				return nil, nil, false, nil
			}
		}
		isNeeded := map[string]bool{}
		for _, id := range need {
			isNeeded[id] = true
		}
		isDep := map[string]bool{}
		for _, id := range depIDs {
			isDep[id] = true
		}
		for _, p := range ds {
			if !isNeeded[p.ID] {
				continue // listed ahead, not imported
			}
			bad := len(p.Errors) > 0 || p.Types == nil || !p.Types.Complete()
			if !isDep[p.ID] {
				// Only LoadFromSource's: one it cannot use is no reason
				// to load the packages another way.
				if !bad {
					src.export[p.ID] = p.Types
				}
				continue
			}
			if bad {
				return nil, nil, false, nil
			}
			deps[p.ID] = p.Types
			src.export[p.ID] = p.Types
		}
		for _, id := range depIDs {
			if deps[id] == nil {
				return nil, nil, false, nil
			}
		}
		if importsRoot(deps, roots) {
			return nil, nil, false, nil
		}
	}
	// The imports' Types, as go/packages gives them (ssa creates a
	// package for each).
	for _, p := range roots {
		for _, imp := range p.Imports {
			switch {
			case imp.ID == "unsafe":
				imp.Types = types.Unsafe
			case isRoot[imp.ID] == nil:
				imp.Types = deps[imp.ID]
			}
		}
	}
	// Type-check the roots in import order: a test variant imports
	// another root ("p_test [p.test]" imports "p [p.test]").
	done := map[string]bool{}
	var check func(p *packages.Package)
	check = func(p *packages.Package) {
		if done[p.ID] {
			return
		}
		done[p.ID] = true
		for _, imp := range p.Imports {
			if r := isRoot[imp.ID]; r != nil {
				check(r)
			}
		}
		typeCheck(cfg.Fset, p, func(id string) *types.Package {
			if r := isRoot[id]; r != nil {
				return r.Types
			}
			return deps[id]
		})
	}
	for _, p := range roots {
		check(p)
	}
	return roots, src, true, nil
}

// importsRoot tells whether a dependency imports, directly or not, a
// package of the roots' paths (as export data records its imports).
func importsRoot(deps map[string]*types.Package, roots []*packages.Package) bool {
	rootPath := map[string]bool{}
	for _, p := range roots {
		rootPath[p.PkgPath] = true
	}
	seen := map[*types.Package]bool{}
	var walk func(t *types.Package) bool
	walk = func(t *types.Package) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		if rootPath[t.Path()] {
			return true
		}
		for _, imp := range t.Imports() {
			if walk(imp) {
				return true
			}
		}
		return false
	}
	for _, t := range deps {
		if walk(t) {
			return true
		}
	}
	return false
}

// typeCheck fills p's Types and TypesInfo from its syntax, as
// go/packages does for a package loaded from source; byID gives an
// import's types.
func typeCheck(fset *token.FileSet, p *packages.Package, byID func(string) *types.Package) {
	p.Types = types.NewPackage(p.PkgPath, p.Name)
	p.TypesInfo = NewInfo()
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			imp := p.Imports[path]
			if imp == nil {
				return nil, fmt.Errorf("no metadata for %s", path)
			}
			if t := byID(imp.ID); t != nil {
				return t, nil
			}
			return nil, fmt.Errorf("no types for %s", imp.ID)
		}),
		Error: func(err error) {
			te, ok := err.(types.Error)
			if !ok {
				p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
				return
			}
			p.TypeErrors = append(p.TypeErrors, te)
			p.Errors = append(p.Errors, packages.Error{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
		},
		Sizes: p.TypesSizes,
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		tc.GoVersion = "go" + p.Module.GoVersion
	}
	// An import without types is the importer's error, among p.Errors.
	_ = types.NewChecker(tc, fset, p.Types, p.TypesInfo).Files(p.Syntax)
	p.IllTyped = len(p.Errors) > 0
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// NewInfo returns a types.Info with every map go/packages fills for a
// package loaded from source.
func NewInfo() *types.Info {
	return &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
}
