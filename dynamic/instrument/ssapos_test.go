package instrument

import (
	"fmt"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go/types"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/pecanvet/pecanvet/static/load"
)

// ssaPositions builds the SSA form of the packages matched in dir and
// returns, for every position some instruction reports, the kinds of the
// instructions there. Positions are rendered as sites are.
func ssaPositions(t *testing.T, dir string, patterns ...string) map[string][]string {
	t.Helper()
	cfg := &packages.Config{Mode: load.Mode, Dir: dir, Tests: true}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	pos := make(map[string][]string)
	add := func(fset *token.FileSet, p token.Pos, kind string) {
		if !p.IsValid() {
			return
		}
		q := fset.Position(p)
		rel, err := filepath.Rel(dir, q.Filename)
		if err != nil {
			return
		}
		k := fmt.Sprintf("%s:%d:%d", filepath.ToSlash(rel), q.Line, q.Column)
		pos[k] = append(pos[k], kind)
	}
	for _, p := range pkgs {
		if strings.HasSuffix(p.ID, ".test") {
			continue
		}
		prog, spkgs := ssautil.Packages([]*packages.Package{p}, ssa.InstantiateGenerics)
		if spkgs[0] == nil {
			t.Fatalf("no SSA for %s", p.ID)
		}
		prog.Build()
		fns := ssautil.AllFunctions(prog)
		for _, m := range spkgs[0].Members {
			if f, ok := m.(*ssa.Function); ok {
				fns[f] = true
			}
		}
		var visit func(f *ssa.Function)
		seen := make(map[*ssa.Function]bool)
		visit = func(f *ssa.Function) {
			if seen[f] {
				return
			}
			seen[f] = true
			add(prog.Fset, f.Pos(), "Function")
			for _, b := range f.Blocks {
				for _, in := range b.Instrs {
					kind := strings.TrimPrefix(fmt.Sprintf("%T", in), "*ssa.")
					add(prog.Fset, in.Pos(), kind)
					if c, ok := in.(ssa.CallInstruction); ok {
						add(prog.Fset, c.Common().Pos(), kind+".Common")
					}
					if s, ok := in.(*ssa.Select); ok {
						for _, st := range s.States {
							add(prog.Fset, st.Pos, "SelectState")
						}
					}
				}
			}
			for _, a := range f.AnonFuncs {
				visit(a)
			}
		}
		for f := range fns {
			if f.Pkg == spkgs[0] || f.Origin() != nil && f.Origin().Pkg == spkgs[0] {
				visit(f)
			}
		}
		// Generic functions and methods of generic types (not reachable
		// from the members).
		for _, obj := range p.TypesInfo.Defs {
			if fnObj, ok := obj.(*types.Func); ok {
				if f := prog.FuncValue(fnObj); f != nil {
					visit(f)
				}
			}
		}
	}
	return pos
}

// TestSitesAreSSAPositions checks that every instrumented site lies at the
// position of an SSA instruction (or, for units of work, of the SSA
// function), so that the static analysis and the recorded trace name the
// same sites.
func TestSitesAreSSAPositions(t *testing.T) {
	setupCorpus(t)
	pos := ssaPositions(t, corpus.dir, "./...")
	var bad []string
	kinds := make(map[string]int)
	for _, s := range corpus.res.Sites {
		k, ok := pos[s.Pos]
		if !ok {
			bad = append(bad, s.Pos+" "+s.Obj)
			continue
		}
		sort.Strings(k)
		kinds[strings.Join(k, ",")]++
	}
	if len(bad) > 0 {
		t.Errorf("%d of %d sites are not SSA positions:\n%s", len(bad), len(corpus.res.Sites), strings.Join(bad, "\n"))
	}
	if testing.Verbose() {
		for k, n := range kinds {
			t.Logf("%4d sites at %s", n, k)
		}
	}
}
