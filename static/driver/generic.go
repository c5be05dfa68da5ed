package driver

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/packages"
)

// instantiate gives each pair of a generic type the type arguments its
// driver instantiates the type with (issue 27: on real modules most
// candidates left "not driven" were methods of generic types, a cache or
// a map of K and V): those of the receiver its setup's test builds, else
// those of the first instance of the type that the tests (or the
// package) write, else the first of int, string and any per parameter
// that satisfies the constraints. A data race or an atomicity violation
// in a method of Cache[K, V] does not depend on K and V but through
// their constraints, so any instance the constraints admit shows it.
//
// A pair for which none is found, or whose arguments the driver cannot
// name (a type of the external test's own), is dropped, and its
// candidates say why. host is the package the drivers join: the type
// arguments are in its types.
func instantiate(host *packages.Package, pairs []pair, tests []*packages.Package, cands []Candidate) []pair {
	var out []pair
	found := map[string][]types.Type{} // type name → the tests' first instance's arguments
	scanned := false
	for _, pr := range pairs {
		tn, ok := host.Types.Scope().Lookup(pr.typ).(*types.TypeName)
		if !ok {
			out = append(out, pr)
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams() == nil {
			out = append(out, pr)
			continue
		}
		if !scanned {
			scanned = true
			instancesIn(host.PkgPath, tests, found)
		}
		var choices [][]types.Type
		if pr.setup != nil && len(pr.setup.targs) > 0 {
			choices = append(choices, pr.setup.targs)
		}
		if targs := found[pr.typ]; targs != nil {
			choices = append(choices, targs)
		}
		choices = append(choices, simpleArgs(named)...)
		pr.targs = nil
		for _, targs := range choices {
			if usableArgs(host.Types, named, targs) {
				pr.targs = targs
				break
			}
		}
		if pr.targs == nil {
			why := "its type " + pr.typ + " is generic, and neither its tests' instances nor int, string or any satisfy its constraints"
			for i := range cands {
				for _, s := range pr.cands {
					if sameSides(s, cands[i].Sides) || sameSides(Sides{s[1], s[0]}, cands[i].Sides) {
						cands[i].NoDriver = why
					}
				}
			}
			continue
		}
		if pr.setup != nil && !sameArgs(pr.setup.targs, pr.targs) {
			// The setup builds another instance than the driver can
			// name: the receiver is built without it.
			pr.noSetup = "The setup of " + pr.setup.test + " (" + pr.setup.at + ") builds an instance of " + pr.typ + " the driver cannot name: the receiver is built as the tests build one."
			pr.setup = nil
		}
		out = append(out, pr)
	}
	return out
}

// instancesIn records in found, per generic type of the package path,
// the type arguments of the first instance of it the syntax of pkgs
// writes or infers (in file order).
func instancesIn(path string, pkgs []*packages.Package, found map[string][]types.Type) {
	for _, p := range pkgs {
		if p == nil || p.TypesInfo == nil {
			continue
		}
		for _, f := range p.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				e, ok := n.(ast.Expr)
				if !ok {
					return true
				}
				nt := namedOf(p.TypesInfo.TypeOf(e))
				if nt == nil || nt.TypeArgs().Len() == 0 || nt.Obj().Pkg() == nil || nt.Obj().Pkg().Path() != path {
					return true
				}
				name := nt.Obj().Name()
				if _, seen := found[name]; seen {
					return true
				}
				var targs []types.Type
				for i := 0; i < nt.TypeArgs().Len(); i++ {
					a := nt.TypeArgs().At(i)
					if _, isParam := a.(*types.TypeParam); isParam {
						return true // the package's own generic code
					}
					targs = append(targs, a)
				}
				found[name] = targs
				return true
			})
		}
	}
}

// simpleArgs lists the instances to try of a generic type: each
// parameter int, string or any, the first parameter varying fastest,
// at most 27 tries (three parameters).
func simpleArgs(named *types.Named) [][]types.Type {
	n := named.TypeParams().Len()
	if n > 3 {
		n = 3
	}
	simple := []types.Type{types.Typ[types.Int], types.Typ[types.String], types.Universe.Lookup("any").Type()}
	var out [][]types.Type
	total := 1
	for i := 0; i < n; i++ {
		total *= len(simple)
	}
	for k := 0; k < total; k++ {
		targs := make([]types.Type, named.TypeParams().Len())
		x := k
		for i := range targs {
			targs[i] = simple[x%len(simple)]
			x /= len(simple)
		}
		out = append(out, targs)
	}
	return out
}

// usableArgs reports whether targs instantiate named (their number, its
// constraints) and the driver file, in pkg, can name each of them.
func usableArgs(pkg *types.Package, named *types.Named, targs []types.Type) bool {
	if len(targs) != named.TypeParams().Len() {
		return false
	}
	if _, err := types.Instantiate(nil, named, targs, true); err != nil {
		return false
	}
	g := &gen{pkg: pkg, imports: map[string]string{}}
	for _, a := range targs {
		if _, ok := g.typeName(a); !ok {
			return false
		}
		bad := false
		types.TypeString(a, func(p *types.Package) string {
			bad = bad || strings.HasSuffix(p.Path(), "_test")
			return p.Name()
		})
		if bad {
			return false // the external test's own type
		}
	}
	return true
}

func sameArgs(a, b []types.Type) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !types.Identical(a[i], b[i]) {
			return false
		}
	}
	return true
}

// instance is named instantiated with targs, or named itself without
// them (or when they do not fit, which instantiate has ruled out).
func instance(named *types.Named, targs []types.Type) *types.Named {
	if len(targs) == 0 {
		return named
	}
	t, err := types.Instantiate(nil, named, targs, true)
	if err != nil {
		return named
	}
	if n, ok := t.(*types.Named); ok {
		return n
	}
	return named
}
