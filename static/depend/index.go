// Package depend tells whether an atomicity violation changes a value its
// unit of work goes on to use.
//
// A unit that reads a variable, lets another goroutine write it, and then
// acts again has a bug only when what it read still matters: the value
// decides whether or where the later access happens, or is written back,
// or is returned (check-then-act, a read-modify-write split across two
// critical sections, a lookup then an insert it decided). Two increments
// of a counter, each under the lock, or two lookups whose results are
// used apart, are safe whatever falls between them.
//
// The question is answered on SSA (golang.org/x/tools/go/ssa) of the
// package and its tests, from the sites of the violation's events and the
// method activations each ran in (every instrumented method records one,
// see predict.Anomaly.Frames): a value can pass from one activation to
// another only through results and arguments, so two reads in two calls
// of one method never feed each other through that method's body. Values
// are followed through operations, local variables, phis, calls' results
// and arguments, and control dependence; not through the heap.
package depend

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Index is the SSA of a package and its tests, indexed by site.
type Index struct {
	fset   *token.FileSet
	root   string                       // sites are relative to it
	instrs map[string][]ssa.Instruction // site → instructions there
	funcs  map[string][]*ssa.Function   // declaration site → functions
	frame  map[*ssa.Function]bool       // methods that record an activation
	all    []*ssa.Function              // functions with bodies in the syntax packages
	cd     map[*ssa.Function]*ctrlDeps  // control dependence, on demand
	scopes map[*ssa.Function]*scope     // on demand
	calls  map[*ssa.Function][]callSite // callee → its static call sites, in every function
	// invokes are the interface method calls, by method name.
	invokes map[string][]callSite
	// fieldPar caches fieldParity's invariants; assuming counts the
	// fields whose parity an induction in progress assumes.
	fieldPar map[*types.Var]int
	assuming int
	// passed caches passes: whether a method's result depends on a
	// parameter.
	passed map[passKey]bool
	// polls caches polled: whether a function is a condition a test
	// polls.
	polls map[*ssa.Function]bool
	// valued caches usedAsValue: whether a function is taken as a value
	// (a method value, a function value) anywhere in the syntax packages.
	valued map[*ssa.Function]bool
}

type callSite struct {
	in ssa.CallInstruction
	fn *ssa.Function // the caller
}

// Build makes the Index of pkgs (a package with its internal tests, and
// its external tests, as go/packages loaded them with syntax and types);
// sites are "path:line:col" with path relative to root, slash-separated,
// as the instrumenter writes them. Packages with type errors are left out.
func Build(pkgs []*packages.Package, root string) (x *Index, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("building SSA: %v", r)
		}
	}()
	// One variant of each package: with its internal tests when it has
	// some (they hold the package's own code too), else itself; and its
	// external tests.
	var syntax []*packages.Package
	withTests := map[string]bool{}
	for _, p := range pkgs {
		if p != nil && strings.HasSuffix(p.ID, ".test]") {
			withTests[p.PkgPath] = true
		}
	}
	for _, p := range pkgs {
		if p == nil || p.Types == nil || p.TypesInfo == nil || p.IllTyped || len(p.Errors) > 0 || len(p.Syntax) == 0 {
			continue
		}
		if strings.HasSuffix(p.ID, ".test") || p.ID == p.PkgPath && withTests[p.PkgPath] {
			continue
		}
		syntax = append(syntax, p)
	}
	if len(syntax) == 0 {
		return nil, fmt.Errorf("no well-typed package with syntax")
	}
	fset := syntax[0].Fset
	prog := ssa.NewProgram(fset, 0)
	created := map[*types.Package]bool{}
	for _, p := range syntax {
		created[p.Types] = true
	}
	for _, p := range syntax {
		for _, imp := range p.Types.Imports() {
			if !created[imp] {
				created[imp] = true
				prog.CreatePackage(imp, nil, nil, true)
			}
		}
	}
	user := map[*ssa.Package]bool{}
	var spkgs []*ssa.Package
	for _, p := range syntax {
		sp := prog.CreatePackage(p.Types, p.Syntax, p.TypesInfo, false)
		spkgs = append(spkgs, sp)
		user[sp] = true
	}
	for _, sp := range spkgs {
		sp.Build()
	}
	x = &Index{
		fset: fset, root: root,
		instrs:  map[string][]ssa.Instruction{},
		funcs:   map[string][]*ssa.Function{},
		frame:   map[*ssa.Function]bool{},
		cd:      map[*ssa.Function]*ctrlDeps{},
		scopes:  map[*ssa.Function]*scope{},
		calls:   map[*ssa.Function][]callSite{},
		invokes: map[string][]callSite{},
		passed:  map[passKey]bool{},
	}
	added := map[*ssa.Function]bool{}
	for fn := range ssautil.AllFunctions(prog) {
		if fn.Pkg == nil || !user[fn.Pkg] || fn.Blocks == nil {
			continue
		}
		added[fn] = true
		x.add(fn)
	}
	// A generic type's methods that the package calls only through an
	// interface are in no method set AllFunctions walks (lockfree's
	// RingBuffer[Value].Enqueue, called through core.Queue[Value]): their
	// bodies, the origins every instance runs, are indexed too, or no
	// rule could read the code of the accesses they record.
	var more func(fn *ssa.Function)
	more = func(fn *ssa.Function) {
		if fn == nil || fn.Pkg == nil || !user[fn.Pkg] || fn.Blocks == nil || added[fn] {
			return
		}
		added[fn] = true
		x.add(fn)
		for _, anon := range fn.AnonFuncs {
			more(anon)
		}
	}
	for _, sp := range spkgs {
		for _, m := range sp.Members {
			t, ok := m.(*ssa.Type)
			if !ok {
				continue
			}
			if named, ok := t.Type().(*types.Named); ok && named.TypeParams().Len() > 0 {
				for i := range named.NumMethods() {
					more(prog.FuncValue(named.Method(i)))
				}
			}
		}
	}
	return x, nil
}

func (x *Index) add(fn *ssa.Function) {
	x.all = append(x.all, fn)
	if fn.Pos().IsValid() {
		k := x.site(fn.Pos())
		x.funcs[k] = append(x.funcs[k], fn)
	}
	if fn.Signature.Recv() != nil && fn.Synthetic == "" {
		if _, ok := fn.Syntax().(*ast.FuncDecl); ok {
			x.frame[fn] = true
		}
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if p := in.Pos(); p.IsValid() {
				k := x.site(p)
				x.instrs[k] = append(x.instrs[k], in)
			}
			if c, ok := in.(ssa.CallInstruction); ok {
				if g := callee(c); g != nil {
					x.calls[g] = append(x.calls[g], callSite{c, fn})
				} else if com := c.Common(); com.IsInvoke() {
					x.invokes[com.Method.Name()] = append(x.invokes[com.Method.Name()], callSite{c, fn})
				}
			}
		}
	}
}

// callee is the function a call runs, when it is known statically (a
// generic instance is its origin, whose body the index holds). An
// instance with a body of its own is, in a generic body, a synthetic
// wrapper that calls the origin (lockfree's `s.Full()` in
// LLStack[Value].Push), which the index does not hold either.
func callee(c ssa.CallInstruction) *ssa.Function {
	g := c.Common().StaticCallee()
	if g != nil && (g.Blocks == nil || g.Synthetic != "") && g.Origin() != nil {
		g = g.Origin()
	}
	return g
}

// site renders pos as the instrumenter renders a site.
func (x *Index) site(pos token.Pos) string {
	p := x.fset.Position(pos)
	name := p.Filename
	if rel, err := filepath.Rel(x.root, name); err == nil && !strings.HasPrefix(rel, "..") {
		name = rel
	}
	return fmt.Sprintf("%s:%d:%d", filepath.ToSlash(name), p.Line, p.Column)
}

// function returns the function declared at site (a method's name, as an
// activation's region names it), or nil.
func (x *Index) function(site string) *ssa.Function {
	for _, fn := range x.funcs[site] {
		if fn.Blocks != nil {
			return fn
		}
	}
	return nil
}
