package instrument

import (
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// moduleDeps returns the import paths of the main module's packages that
// pkgs import, directly or through each other, other than pkgs
// themselves. They are instrumented too (without their tests), for their
// goroutines and synchronization only (rt.RegisterQuiet): a goroutine
// that a helper package of the module starts, or a lock it takes, is
// otherwise invisible to the trace, and so to happens-before. conc's pool
// starts its workers through the module's root package (conc.WaitGroup),
// and every schedule that put a worker's first step before the call
// starting it deadlocked in replay, for the quiet bound each.
func moduleDeps(cfg *packages.Config, pkgs []*packages.Package, mod *packages.Module) []string {
	have := map[string]bool{}
	for _, p := range pkgs {
		have[strings.TrimSuffix(p.PkgPath, "_test")] = true
	}
	inModule := func(path string) bool {
		return path == mod.Path || strings.HasPrefix(path, mod.Path+"/")
	}
	var roots []string
	seen := map[string]bool{}
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			id, _, _ := strings.Cut(imp.ID, " ")
			if inModule(id) && !have[id] && !seen[id] {
				seen[id] = true
				roots = append(roots, id)
			}
		}
	}
	if len(roots) == 0 {
		return nil
	}
	// Names and imports only: no type-checking, one go list.
	quick := *cfg
	quick.Mode = packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedModule
	quick.Tests = false
	quick.Fset = nil
	deps, err := packages.Load(&quick, roots...)
	if err != nil {
		return nil
	}
	var out []string
	packages.Visit(deps, nil, func(p *packages.Package) {
		if p.Module != nil && p.Module.Main && p.Module.Path == mod.Path && !have[p.PkgPath] && len(p.Errors) == 0 {
			have[p.PkgPath] = true
			out = append(out, p.PkgPath)
		}
	})
	sort.Strings(out)
	return out
}

// loadDeps loads the packages at paths for instrumenting, without their
// tests. A package that does not load is left out: it stays as it is.
func loadDeps(cfg *packages.Config, paths []string) []*packages.Package {
	if len(paths) == 0 {
		return nil
	}
	c := *cfg
	c.Tests = false
	pkgs, err := packages.Load(&c, paths...)
	if err != nil {
		return nil
	}
	var ok []*packages.Package
	for _, p := range pkgs {
		if len(p.Errors) == 0 && p.Types != nil {
			ok = append(ok, p)
		}
	}
	return ok
}
