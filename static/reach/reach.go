// Package reach tells which functions each test of a package can reach,
// over a call graph.
//
// The graph is of the package and its tests. The tests from which both
// contexts of a static candidate are reachable are the ones whose runs
// can hold it, and the dynamic loop records and checks them first.
//
// The graph is built from SSA (golang.org/x/tools/go/ssa) of the package
// with its internal tests and of its external tests, the imported
// packages known by their types only. It over-approximates, so that a
// test it says reaches nothing is one that cannot:
//   - a function is reached when a reached function refers to it: a call,
//     a go or defer, a function value, a closure, a method value;
//   - an interface method call reaches that method of every type of the
//     package that implements the interface (class hierarchy analysis);
//   - a type of the package converted to an interface in reached code
//     has all its methods reached: code without bodies here (the standard
//     library, other packages) may call them back (sort.Sort calls Less);
//   - init functions and TestMain are reached by every test: they run in
//     each test's process.
//
// Callbacks through reflection are not seen.
package reach

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// Graph is the call graph of a package's tests.
type Graph struct {
	fset  *token.FileSet
	tests map[string][]*ssa.Function // test name → its function(s): internal and external tests may share a name
	roots []*ssa.Function            // init functions and TestMain
	succ  map[*ssa.Function][]*ssa.Function
	types []types.Type // the syntax packages' named types and pointers to them, for invoke and conversions
	impl  map[string][]*ssa.Function
	prog  *ssa.Program
	user  map[*types.Package]bool
}

// Build makes the call graph of pkgs: the package with its internal tests
// (or the package itself when it has none) and its external tests, as
// go/packages loaded them with syntax and types. A package with type
// errors is left out.
func Build(pkgs []*packages.Package) (g *Graph, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("building the call graph: %v", r)
		}
	}()
	var fset *token.FileSet
	for _, p := range pkgs {
		if p != nil {
			fset = p.Fset
			break
		}
	}
	if fset == nil {
		return nil, fmt.Errorf("no packages")
	}
	prog := ssa.NewProgram(fset, 0)
	g = &Graph{fset: fset, tests: map[string][]*ssa.Function{}, succ: map[*ssa.Function][]*ssa.Function{}, impl: map[string][]*ssa.Function{}, prog: prog, user: map[*types.Package]bool{}}
	created := map[*types.Package]bool{}
	var syntax []*packages.Package
	for _, p := range pkgs {
		if p == nil || p.Types == nil || p.TypesInfo == nil || p.IllTyped || len(p.Errors) > 0 {
			continue
		}
		syntax = append(syntax, p)
		created[p.Types] = true
		g.user[p.Types] = true
	}
	if len(syntax) == 0 {
		return nil, fmt.Errorf("no well-typed package with syntax")
	}
	// The imported packages first, by their types (no bodies); the
	// syntax packages with theirs: the external tests import the package
	// with its internal tests, whose functions must be the ones built.
	for _, p := range syntax {
		for _, imp := range p.Types.Imports() {
			if !created[imp] {
				created[imp] = true
				prog.CreatePackage(imp, nil, nil, true)
			}
		}
	}
	var spkgs []*ssa.Package
	for _, p := range syntax {
		spkgs = append(spkgs, prog.CreatePackage(p.Types, p.Syntax, p.TypesInfo, false))
	}
	for _, sp := range spkgs {
		sp.Build()
	}
	for _, sp := range spkgs {
		for _, name := range slices.Sorted(maps.Keys(sp.Members)) {
			switch m := sp.Members[name].(type) {
			case *ssa.Function:
				switch {
				case name == "init" || name == "TestMain":
					g.roots = append(g.roots, m)
				case isTestName(name):
					g.tests[name] = append(g.tests[name], m)
				}
			case *ssa.Type:
				if _, ok := m.Type().Underlying().(*types.Interface); ok {
					continue
				}
				if n, ok := m.Type().(*types.Named); ok && n.TypeParams() != nil {
					continue // its instances' methods are reached through their calls
				}
				g.types = append(g.types, m.Type(), types.NewPointer(m.Type()))
			}
		}
	}
	return g, nil
}

func isTestName(name string) bool {
	for _, p := range []string{"Test", "Example", "Fuzz", "Benchmark"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// Tests returns the names of the test functions, sorted.
func (g *Graph) Tests() []string {
	return slices.Sorted(maps.Keys(g.tests))
}

// Key is how Reached names a function: the position of its declaration
// or literal, "file:line:col".
func Key(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// Reached returns the functions the test can reach, by Key: the
// functions written in the loaded packages (not wrappers or those known
// only by their types). Nil for an unknown test.
func (g *Graph) Reached(test string) map[string]bool {
	fns, ok := g.tests[test]
	if !ok {
		return nil
	}
	seen := map[*ssa.Function]bool{}
	work := append(append([]*ssa.Function(nil), fns...), g.roots...)
	out := map[string]bool{}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		if fn == nil || seen[fn] {
			continue
		}
		seen[fn] = true
		if fn.Pos().IsValid() && fn.Synthetic == "" {
			out[Key(g.fset, fn.Pos())] = true
		}
		work = append(work, g.successors(fn)...)
	}
	return out
}

// successors are the functions fn refers to or may call, computed once.
func (g *Graph) successors(fn *ssa.Function) []*ssa.Function {
	if s, ok := g.succ[fn]; ok {
		return s
	}
	var out []*ssa.Function
	if o := fn.Origin(); o != nil {
		out = append(out, o)
	}
	var ops []*ssa.Value
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if c, ok := in.(ssa.CallInstruction); ok && c.Common().IsInvoke() {
				out = append(out, g.implementations(c.Common())...)
			}
			if mi, ok := in.(*ssa.MakeInterface); ok {
				out = append(out, g.methods(mi.X.Type())...)
			}
			ops = in.Operands(ops[:0])
			for _, op := range ops {
				if op == nil {
					continue
				}
				if f, ok := (*op).(*ssa.Function); ok {
					out = append(out, f)
				}
			}
		}
	}
	g.succ[fn] = out
	return out
}

// implementations are the methods an interface call may run among the
// syntax packages' types.
func (g *Graph) implementations(c *ssa.CallCommon) []*ssa.Function {
	iface, _ := c.Value.Type().Underlying().(*types.Interface)
	if iface == nil {
		return nil
	}
	key := types.TypeString(c.Value.Type(), nil) + "." + c.Method.Name()
	if fns, ok := g.impl[key]; ok {
		return fns
	}
	var out []*ssa.Function
	for _, t := range g.types {
		if !types.Implements(t, iface) {
			continue
		}
		if sel := g.prog.MethodSets.MethodSet(t).Lookup(c.Method.Pkg(), c.Method.Name()); sel != nil {
			if f := g.prog.MethodValue(sel); f != nil {
				out = append(out, f)
			}
		}
	}
	g.impl[key] = out
	return out
}

// methods are the methods of t, when t is (a pointer to) a named type of
// a syntax package: converted to an interface, any of them may be called
// back by code without bodies here.
func (g *Graph) methods(t types.Type) []*ssa.Function {
	n := t
	if p, ok := t.(*types.Pointer); ok {
		n = p.Elem()
	}
	named, ok := n.(*types.Named)
	if !ok || named.Obj().Pkg() == nil || !g.user[named.Obj().Pkg()] {
		return nil
	}
	var out []*ssa.Function
	ms := g.prog.MethodSets.MethodSet(t)
	for i := 0; i < ms.Len(); i++ {
		if f := g.prog.MethodValue(ms.At(i)); f != nil {
			out = append(out, f)
		}
	}
	return out
}
