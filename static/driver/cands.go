package driver

import (
	"fmt"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/pecanvet/pecanvet/passes/candidates"
)

// candidatesOf runs the candidates analyzer (and what it requires: SSA,
// the symbolic sequences) on one loaded package, here rather than under go
// vet: the dynamic loop needs them only for the packages it records, and
// requiring them from the vet analyzer would build SSA for every package
// and its dependencies (the symbolic summaries are facts). Without the
// dependencies' facts, calls into other packages contribute no events: a
// candidate whose accesses are all in another package is missed, which
// costs a driver, never a wrong one.
func candidatesOf(p *packages.Package) (candidates.Result, error) {
	results := map[*analysis.Analyzer]any{}
	var run func(a *analysis.Analyzer) (any, error)
	run = func(a *analysis.Analyzer) (any, error) {
		if r, ok := results[a]; ok {
			return r, nil
		}
		deps := map[*analysis.Analyzer]any{}
		for _, req := range a.Requires {
			r, err := run(req)
			if err != nil {
				return nil, err
			}
			deps[req] = r
		}
		pass := &analysis.Pass{
			Analyzer:          a,
			Fset:              p.Fset,
			Files:             p.Syntax,
			Pkg:               p.Types,
			TypesInfo:         p.TypesInfo,
			TypesSizes:        p.TypesSizes,
			ResultOf:          deps,
			Report:            func(analysis.Diagnostic) {},
			ImportObjectFact:  func(types.Object, analysis.Fact) bool { return false },
			ExportObjectFact:  func(types.Object, analysis.Fact) {},
			ImportPackageFact: func(*types.Package, analysis.Fact) bool { return false },
			ExportPackageFact: func(analysis.Fact) {},
			AllObjectFacts:    func() []analysis.ObjectFact { return nil },
			AllPackageFacts:   func() []analysis.PackageFact { return nil },
		}
		if p.Module != nil {
			pass.Module = &analysis.Module{Path: p.Module.Path, Version: p.Module.Version, GoVersion: p.Module.GoVersion}
		}
		r, err := a.Run(pass)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.Name, err)
		}
		if a.ResultType != nil && (r == nil || reflect.TypeOf(r) != a.ResultType) {
			return nil, fmt.Errorf("%s returned %T, want %v", a.Name, r, a.ResultType)
		}
		results[a] = r
		return r, nil
	}
	r, err := run(candidates.Analyzer)
	if err != nil {
		return nil, err
	}
	return *r.(*candidates.Result), nil
}
