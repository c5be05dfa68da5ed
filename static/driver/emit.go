package driver

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/format"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// values are what the package's tests pass, read from their syntax: the
// first call of each kind whose arguments are all constants, or local
// variables set only from constants ("amount := 30; l.Withdraw(amount)").
type values struct {
	// ctors: receiver type name → a call of a package function returning
	// it (or a pointer to it), as the tests build one.
	ctors map[string]ctorCall
	// args: "Type.Method" → the arguments of a call of that method.
	args map[string][]string
}

type ctorCall struct {
	fn   *types.Func
	args []string
}

// harvest reads the constant arguments of the calls the tests (of the
// package path, in the given test variants) make of the package's
// functions and methods.
func harvest(path string, tests []*packages.Package) *values {
	vals := &values{ctors: map[string]ctorCall{}, args: map[string][]string{}}
	for _, p := range tests {
		if p == nil || p.TypesInfo == nil {
			continue
		}
		for i, f := range p.Syntax {
			if i < len(p.CompiledGoFiles) && !strings.HasSuffix(p.CompiledGoFiles[i], "_test.go") {
				continue
			}
			vars := constVars(p.TypesInfo, f)
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || call.Ellipsis.IsValid() {
					return true
				}
				fn, _ := typeutil.Callee(p.TypesInfo, call).(*types.Func)
				if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != path {
					return true
				}
				var args []string
				for _, a := range call.Args {
					tv := p.TypesInfo.Types[a]
					s, ok := literal(tv.Value)
					if !ok {
						if id, isID := ast.Unparen(a).(*ast.Ident); isID {
							s, ok = vars[p.TypesInfo.Uses[id]]
						}
					}
					if !ok {
						return true
					}
					args = append(args, s)
				}
				sig := fn.Type().(*types.Signature)
				if sig.TypeParams() != nil {
					return true
				}
				if recv := sig.Recv(); recv != nil {
					if n := namedOf(recv.Type()); n != nil {
						key := n.Obj().Name() + "." + fn.Name()
						if _, seen := vals.args[key]; !seen {
							vals.args[key] = args
						}
					}
					return true
				}
				if r := sig.Results(); r.Len() >= 1 && r.Len() <= 2 {
					if n := namedOf(r.At(0).Type()); n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path {
						if _, seen := vals.ctors[n.Obj().Name()]; !seen {
							vals.ctors[n.Obj().Name()] = ctorCall{fn: fn, args: args}
						}
					}
				}
				return true
			})
		}
	}
	return vals
}

// constVars maps the local variables of file f that are only ever set
// from constants, all the same, to that constant as Go source. A variable
// whose address is taken, or that is set otherwise (x++, from a call), is
// left out: its value at a call is not known.
func constVars(info *types.Info, f *ast.File) map[types.Object]string {
	vals := map[types.Object]string{}
	bad := map[types.Object]bool{}
	set := func(id *ast.Ident, rhs ast.Expr) {
		obj := info.Defs[id]
		if obj == nil {
			obj = info.Uses[id]
		}
		v, ok := obj.(*types.Var)
		if !ok || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
			return // package-level: any code may change it
		}
		s, ok := "", false
		if rhs != nil {
			s, ok = literal(info.Types[rhs].Value)
		}
		if !ok || (vals[obj] != "" && vals[obj] != s) {
			bad[obj] = true
			return
		}
		vals[obj] = s
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				id, ok := ast.Unparen(l).(*ast.Ident)
				if !ok {
					continue
				}
				var rhs ast.Expr
				if len(n.Lhs) == len(n.Rhs) && (n.Tok == token.DEFINE || n.Tok == token.ASSIGN) {
					rhs = n.Rhs[i]
				}
				set(id, rhs)
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				var rhs ast.Expr
				if len(n.Values) == len(n.Names) {
					rhs = n.Values[i]
				}
				set(id, rhs)
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
				set(id, nil)
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
				set(id, nil)
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					set(id, nil)
				}
			}
		}
		return true
	})
	for obj := range bad {
		delete(vals, obj)
	}
	return vals
}

// typeList is l as a slice.
func typeList(l *types.TypeList) []types.Type {
	out := make([]types.Type, l.Len())
	for i := range out {
		out[i] = l.At(i)
	}
	return out
}

// namedOf returns T for T or *T.
func namedOf(t types.Type) *types.Named {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// literal renders a constant as Go source that converts implicitly to the
// parameter's type.
func literal(v constant.Value) (string, bool) {
	if v == nil {
		return "", false
	}
	switch v.Kind() {
	case constant.Bool, constant.String, constant.Int:
		return v.ExactString(), true
	case constant.Float:
		if f, ok := constant.Float64Val(v); ok {
			return strconv.FormatFloat(f, 'g', -1, 64), true
		}
	}
	return "", false
}

type gen struct {
	pkg     *types.Package
	imports map[string]string // path → name
	vals    *values           // what the tests pass, for the arguments' receivers
	// building: the types whose receiver expression is being written, so
	// that a constructor taking its own type (NewNode(parent *Node))
	// does not recurse.
	building map[*types.TypeName]bool
	// copied: the external tests' declarations already written to
	// helpers, the file's copies of them (setup.helpers).
	copied  map[types.Object]bool
	aliased map[string]bool // the types whose alias (aliasPrefix) helpers declares
	helpers strings.Builder
}

// small returns an expression of type t: a small value for basic types
// (1, "a", false) — a zero amount or key often makes a method do nothing
// — and the zero value otherwise; "" if t cannot be named from the
// package.
func (g *gen) small(t types.Type) string {
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context" {
		// A nil context panics in the first ctx.Done() (semaphore's
		// Acquire): the driver would skip as without a usable receiver.
		name, _ := g.typeName(t)
		return strings.TrimSuffix(name, "Context") + "Background()"
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false"
		case u.Info()&types.IsString != 0:
			return `"a"`
		case u.Info()&types.IsInteger != 0, u.Info()&types.IsFloat != 0:
			return "1"
		}
	case *types.Interface:
		if _, named := t.(*types.Named); !named {
			return "nil"
		}
	case *types.Signature:
		// A no-op function, not a nil one: a callback the method calls
		// (Work(f), Go(f)) would panic, and the driver would skip as if
		// it had no usable receiver.
		return g.noop(t, u)
	case *types.Pointer:
		// A pointer to a struct of the package (List.AddAll(src
		// *List[T])) is built as a receiver is, not nil: a nil one
		// panics in the sequential calls, and the driver would skip as
		// without a usable receiver.
		if n := namedOf(t); n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == g.pkg.Path() && !g.building[n.Obj()] {
			if _, isStruct := n.Underlying().(*types.Struct); isStruct {
				if _, ok := g.typeName(n); ok {
					return g.receiver(n, g.vals)
				}
			}
		}
	}
	name, ok := g.typeName(t)
	if !ok {
		return ""
	}
	return "*new(" + name + ")"
}

// noop returns a function literal of type t (signature sig) that does
// nothing and returns zero values, or "" if a type in it cannot be
// written here.
func (g *gen) noop(t types.Type, sig *types.Signature) string {
	var params, results []string
	for i := 0; i < sig.Params().Len(); i++ {
		pt := sig.Params().At(i).Type()
		prefix := ""
		if sig.Variadic() && i == sig.Params().Len()-1 {
			pt, prefix = pt.(*types.Slice).Elem(), "..."
		}
		name, ok := g.typeName(pt)
		if !ok {
			return ""
		}
		params = append(params, "_ "+prefix+name)
	}
	for i := 0; i < sig.Results().Len(); i++ {
		name, ok := g.typeName(sig.Results().At(i).Type())
		if !ok {
			return ""
		}
		results = append(results, "r"+strconv.Itoa(i)+" "+name)
	}
	lit := "func(" + strings.Join(params, ", ") + ") (" + strings.Join(results, ", ") + ") { return }"
	if _, named := t.(*types.Named); named {
		name, ok := g.typeName(t)
		if !ok {
			return ""
		}
		return name + "(" + lit + ")"
	}
	return lit
}

// importName is the name the driver file imports p under, recording the
// import: its own name where nothing in the package takes it, so that
// copied test code reads as the test does.
func (g *gen) importName(p *types.Package) string {
	for _, imp := range driverImports {
		if imp == p.Path() {
			return p.Name()
		}
	}
	if name, seen := g.imports[p.Path()]; seen {
		return name
	}
	name := p.Name()
	taken := g.pkg.Scope().Lookup(name) != nil || strings.HasPrefix(name, "pecanvet") || name == "_" || name == "."
	for _, imp := range driverImports {
		taken = taken || imp == name
	}
	for _, other := range g.imports {
		taken = taken || other == name
	}
	if taken {
		name = fmt.Sprintf("pecanvetimp%d", len(g.imports))
	}
	g.imports[p.Path()] = name
	return name
}

// typeName writes t as the package sees it, recording imports; false if a
// part of it is not exported from its package.
func (g *gen) typeName(t types.Type) (string, bool) {
	ok := true
	s := types.TypeString(t, func(p *types.Package) string {
		if p == g.pkg || p.Path() == g.pkg.Path() {
			return ""
		}
		return g.importName(p)
	})
	var check func(t types.Type, depth int)
	check = func(t types.Type, depth int) {
		if depth > 8 {
			ok = false
			return
		}
		switch t := types.Unalias(t).(type) {
		case *types.Named:
			if t.Obj().Pkg() != nil && t.Obj().Pkg().Path() != g.pkg.Path() && !t.Obj().Exported() {
				ok = false
			}
			// An instance (Cache[string, int]) is named with its
			// arguments, each of which must be nameable too.
			for i := 0; i < t.TypeArgs().Len(); i++ {
				check(t.TypeArgs().At(i), depth+1)
			}
		case *types.TypeParam:
			ok = false // a parameter of a generic type: not in scope
		case *types.Pointer:
			check(t.Elem(), depth+1)
		case *types.Slice:
			check(t.Elem(), depth+1)
		case *types.Map:
			check(t.Key(), depth+1)
			check(t.Elem(), depth+1)
		}
	}
	check(t, 0)
	return s, ok
}

// args returns small arguments for sig (none for a variadic parameter).
func (g *gen) args(sig *types.Signature) ([]string, bool) {
	var args []string
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Variadic() && i == sig.Params().Len()-1 {
			break
		}
		z := g.small(sig.Params().At(i).Type())
		if z == "" {
			return nil, false
		}
		args = append(args, z)
	}
	return args, true
}

// ctorExpr returns an expression of type *T calling fn (which returns T or
// *T, and maybe a second result, dropped) with args.
func (g *gen) ctorExpr(named *types.Named, fn *types.Func, args []string) string {
	sig := fn.Type().(*types.Signature)
	name := fn.Name()
	if tps := sig.TypeParams(); tps != nil {
		// A generic constructor of a generic type (New[K, V]),
		// instantiated as the driven instance is: named's arguments.
		var targs []string
		for i := 0; i < named.TypeArgs().Len(); i++ {
			a, _ := g.typeName(named.TypeArgs().At(i))
			targs = append(targs, a)
		}
		name += "[" + strings.Join(targs, ", ") + "]"
		if inst, err := types.Instantiate(nil, sig, typeList(named.TypeArgs()), true); err == nil {
			sig = inst.(*types.Signature)
		}
	}
	call := name + "(" + strings.Join(args, ", ") + ")"
	res := sig.Results().At(0).Type()
	_, ptr := types.Unalias(res).(*types.Pointer)
	tname, _ := g.typeName(named)
	switch {
	case sig.Results().Len() == 1 && ptr:
		return call
	case sig.Results().Len() == 1:
		return "func() *" + tname + " { v := " + call + "; return &v }()"
	case ptr:
		return "func() *" + tname + " { v, _ := " + call + "; return v }()"
	default:
		return "func() *" + tname + " { v, _ := " + call + "; return &v }()"
	}
}

// receiver returns an expression building a *T the way the package's
// tests do, else with New<T> or New (small arguments), else new(T).
func (g *gen) receiver(named *types.Named, vals *values) string {
	if c, ok := vals.ctors[named.Obj().Name()]; ok && named.TypeArgs().Len() == 0 {
		return g.ctorExpr(named, c.fn, c.args)
	}
	if g.building == nil {
		g.building = map[*types.TypeName]bool{}
	}
	g.building[named.Obj()] = true
	defer delete(g.building, named.Obj())
	scope := g.pkg.Scope()
	// New<T> and New first, then any function of the package that
	// returns the type (arraylist's Of[T any](vs ...T) *List[T]): the
	// zero value of a type with a constructor is often unusable.
	// Those others take only basic values (or none, variadic): one
	// that takes a package type (Wrap(p *Pool) *Pool) is no constructor.
	cands := []string{"New" + named.Obj().Name(), "New"}
	for _, name := range scope.Names() {
		fn, ok := scope.Lookup(name).(*types.Func)
		if !ok || name == cands[0] || name == cands[1] || !fn.Exported() {
			continue
		}
		sig := fn.Type().(*types.Signature)
		basic := sig.Results().Len() == 1
		for i := 0; i < sig.Params().Len() && basic; i++ {
			_, isBasic := sig.Params().At(i).Type().Underlying().(*types.Basic)
			basic = isBasic || sig.Variadic() && i == sig.Params().Len()-1
		}
		if basic {
			cands = append(cands, name)
		}
	}
	for _, cand := range cands {
		fn, ok := scope.Lookup(cand).(*types.Func)
		if !ok {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if sig.TypeParams() != nil {
			// A generic constructor serves the instance it returns
			// when given the instance's arguments (New[K, V]()
			// *Cache[K, V]).
			if sig.TypeParams().Len() != named.TypeArgs().Len() {
				continue
			}
			inst, err := types.Instantiate(nil, sig, typeList(named.TypeArgs()), true)
			if err != nil {
				continue
			}
			sig = inst.(*types.Signature)
		}
		if sig.Results().Len() == 0 || sig.Results().Len() > 2 {
			continue
		}
		// A result of no named type (a slice, a func) builds nothing:
		// namedOf's nil must not reach types.Identical, which panics.
		if rn := namedOf(sig.Results().At(0).Type()); rn == nil || !types.Identical(rn, named) {
			continue
		}
		args, ok := g.args(sig)
		if !ok {
			continue
		}
		return g.ctorExpr(named, fn, args)
	}
	tname, _ := g.typeName(named)
	return "new(" + tname + ")"
}

// call returns a function literal calling method m on recv (an
// expression of type *T, or an addressable T) and returning the results,
// with the arguments the setup's test passes, else those the tests pass,
// else small ones (second: the setup's test's second call of m, if it
// makes one); "" if it cannot be called from here.
func (g *gen) call(named *types.Named, recv, m string, vals *values, s *setup, second bool) string {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), true, g.pkg, m)
	fn, ok := obj.(*types.Func)
	if !ok {
		return ""
	}
	sig := fn.Type().(*types.Signature)
	if sig.TypeParams() != nil {
		return ""
	}
	var args []string
	if c := s.callOf(m, second); c != nil {
		for _, a := range c.Args {
			args = append(args, g.render(s, a))
		}
	} else if args, ok = vals.args[named.Obj().Name()+"."+m]; !ok || !fits(args, sig) {
		if args, ok = g.args(sig); !ok {
			return ""
		}
	}
	call := recv + "." + m + "(" + strings.Join(args, ", ") + ")"
	n := sig.Results().Len()
	if n == 0 {
		return "func() []interface{} { " + call + "; return nil }"
	}
	rs := make([]string, n)
	for i := range rs {
		rs[i] = "r" + strconv.Itoa(i)
	}
	return "func() []interface{} { " + strings.Join(rs, ", ") + " := " + call + "; return []interface{}{" + strings.Join(rs, ", ") + "} }"
}

// fits reports whether the constants args, harvested from any call of the
// method, can be passed to sig: a generic type's tests call it on other
// instances (haxmap's Map[int, string].GetOrSet(1, "one") beside a setup
// building a Map[int, *Animal]).
func fits(args []string, sig *types.Signature) bool {
	n := sig.Params().Len()
	if len(args) != n && !(sig.Variadic() && len(args) >= n-1) {
		return false
	}
	for i, a := range args {
		var t types.Type
		if sig.Variadic() && i >= n-1 {
			t = sig.Params().At(n - 1).Type().(*types.Slice).Elem()
		} else {
			t = sig.Params().At(i).Type()
		}
		// A constant is judged alone; anything else is left to the
		// driver's type check.
		if tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, a); err == nil && !types.AssignableTo(tv.Type, t) {
			return false
		}
	}
	return true
}

// LateSkipLog is the line a driver logs when it skips after its calls ran
// together (its oracle's later orders panicked or did not return): its
// recording holds calls together that, with the oracle first, never ran.
// check predicts nothing from such a recording, as it found nothing to
// predict there before: replayed, their panic would crash the process,
// unjudged (pecanvetReplaying).
const LateSkipLog = "pecanvet: the driver skipped after its calls ran together"

// CleanupFailLog is the line a driver logs last when the cleanup copied
// from a test (a deferred leak check) failed it and its oracle did not:
// the failure is not the calls'. check counts such a run, recorded or
// replayed (replay.Options.Excused), as passing.
const CleanupFailLog = "pecanvet: the driver failed only in the cleanup copied from the test"

// helper is the code shared by the drivers of a file: see the package
// documentation. It uses no generics and no "any": the module may declare
// an old go line.
const helper = `
// pecanvetKV is one part of a receiver's observable state: a getter's
// results ("Total()"), an exported field, or, named "", the whole value.
type pecanvetKV struct {
	Name  string
	Value []interface{}
}

// pecanvetCase is one receiver, built afresh: the two calls on it, its
// observable state (its getters' results, else its exported fields, else
// its whole value), and what ends its life.
type pecanvetCase struct {
	A, B    func() []interface{}
	State   func() []pecanvetKV
	Cleanup func()
	Recv    interface{} // the receiver, a pointer: each case needs its own
}

// pecanvetDrive calls A and B of a case from two goroutines, and calls
// them one after the other on fresh cases, in both orders, twice each:
// the first order before the calls together, the others after. A panic of the sequential calls in both orders skips the test:
// the driver could not build a usable receiver, unless each call alone
// does not panic (each ends the receiver's use: they exclude each
// other); in one order only, the calls are valid in the other only (a
// use after a Release), and are not to be called together. A panic or
// failure of the test's cleanup is not the calls' (CleanupFailLog), and a getter's panic is part of
// the state. When the sequential outcomes repeat, the
// concurrent calls must leave the receiver's observable state as one of
// the orders does (what they return may differ by design: see the
// package documentation of static/driver). Calls that do not return
// within the wait (a loop that runs until another call stops it) skip
// the test: a driver cannot tell such a method's outcome.
//
// why, if given, says how the receiver was built when no test's setup
// was copied, for the skip without a usable receiver.
func pecanvetDrive(t *testing.T, calls string, mk func() pecanvetCase, why ...string) {
	// A setup that hands out one shared receiver (cache2go's Cache(name)
	// returns the table registered under the name) gives no fresh case:
	// each order starts from what the previous case left, timers
	// included, and no order is an oracle for the concurrent calls.
	// (Found by the generated driver calling MostAccessed and Value on
	// cache2go's shared table, whose item expired during the replay.)
	var recvs []interface{}
	shared := false
	// A failure that the cleanup copied from the test raises is not the
	// calls', as its panic is not (pecanvetCleanup): cmux's leakCheck,
	// deferred by TestTimeout, snapshots every goroutine's stack and
	// fails for any that then looks otherwise, which a replay's held
	// goroutines do. When one turned the test failed and the calls'
	// outcome was not found wrong, the test says so last, for pecanvet.
	cleanupFailed := make(chan struct{}, 1)
	compared := false
	defer func() {
		if len(cleanupFailed) > 0 && !compared {
			t.Log("` + CleanupFailLog + `")
		}
	}()
	mk0 := mk
	mk = func() pecanvetCase {
		c := mk0()
		for _, r := range recvs {
			shared = shared || (c.Recv != nil && r == c.Recv)
		}
		recvs = append(recvs, c.Recv)
		if cleanup := c.Cleanup; cleanup != nil {
			c.Cleanup = func() {
				failed := t.Failed()
				defer func() {
					if !failed && t.Failed() {
						select {
						case cleanupFailed <- struct{}{}:
						default:
						}
					}
				}()
				cleanup()
			}
		}
		return c
	}
	wait := pecanvetWaitFor(t.Name())
	// The oracle: the calls one after the other, in both orders, twice
	// each (seq). The first order runs before the calls together, the
	// other three after them: a replay's schedule ends at its anomaly,
	// in the calls together, and the rest of the oracle runs free after
	// it, not step by step (issue 30: the oracle was 85% of a driver
	// replay's steps). The first order keeps the calls together from
	// being the process's first use of the package (a lazy package-level
	// init), and the two runs of that order bracket them: calls together
	// that leave package-level state behind, seen in the receiver's
	// state, make the orders disagree (no oracle), not an effect.
	var seq [4][3]interface{}
	var panics [4]interface{}
	order := func(i int) string {
		var out [3]interface{}
		var p interface{}
		start := time.Now()
		returned, ended, quiet := pecanvetWithin(wait, func() { out, p = pecanvetSeq(mk, i >= 2, 0) })
		if !returned {
			why := fmt.Sprintf("pecanvet driver: calling %s one after the other does not return within %v: it waits for another call", calls, wait)
			if quiet {
				why += fmt.Sprintf(" (told after %v: every goroutine waited for another, no timer due)", time.Since(start).Round(time.Millisecond))
			}
			return why
		}
		if !ended {
			return fmt.Sprintf("pecanvet driver: the setup of %s stopped the test (t.Skip or t.Fatal)", calls)
		}
		seq[i], panics[i] = out, p
		return ""
	}
	// oracle runs orders from..3 and says why the test skips, or "".
	oracle := func(from int) string {
		for i := from; i < len(seq); i++ {
			if why := order(i); why != "" {
				return why
			}
		}
		switch {
		case panics[0] != nil && panics[2] != nil:
			if pecanvetAlone(mk, false) == nil && pecanvetAlone(mk, true) == nil {
				// Each call ends the receiver's use (puddle's Release and
				// ReleaseUnused): the other panics after it.
				return fmt.Sprintf("pecanvet driver: calling %s one after the other panics in both orders (%v), each alone not: the calls exclude each other", calls, panics[0])
			}
			if len(why) > 0 {
				return fmt.Sprintf("pecanvet driver: calling %s one after the other panics (%v): no usable receiver: %s", calls, panics[0], why[0])
			}
			return fmt.Sprintf("pecanvet driver: calling %s one after the other panics (%v): no usable receiver", calls, panics[0])
		case panics[0] != nil || panics[2] != nil:
			// The receiver works, but the calls are ordered by its
			// contract (puddle's Resource: Release ends its use, and a
			// getter after it panics): called together, either may run
			// second.
			p := panics[0]
			if p == nil {
				p = panics[2]
			}
			return fmt.Sprintf("pecanvet driver: calling %s one after the other panics in one order (%v), not in the other: the calls are valid in one order only", calls, p)
		case panics[1] != nil || panics[3] != nil:
			return fmt.Sprintf("pecanvet driver: calling %s one after the other panics only sometimes: no oracle", calls)
		}
		return ""
	}
	if why := order(0); why != "" {
		t.Skip(why)
	}
	if panics[0] != nil {
		// Skips whatever the other orders do: decided before the calls
		// run together, as before.
		t.Skip(oracle(1))
	}
	// The rest of the oracle, once: after the calls together, or during
	// them, from a call that panicked and waits for the judgment.
	claim, judged := make(chan struct{}, 1), make(chan struct{})
	skip := ""
	judge := func() string {
		select {
		case claim <- struct{}{}:
			skip = oracle(1)
			close(judged)
		case <-judged:
		}
		return skip
	}
	// A call that panics together with the other is an effect only if
	// the oracle does not skip (the orders panic too). Outside a replay
	// the panicking goroutine runs the oracle in its deferred guard,
	// before the panic goes on: not recovered, it ends the process with
	// the call's own traceback, as before. Under a replay it goes on at
	// once, as before: the oracle's steps, run while the schedule holds
	// the other goroutines, would end the replay first (divergence), and
	// the recording already ran the oracle (pecanvet does not replay a
	// driver whose recording skipped after its calls, LateSkipLog).
	replaying := pecanvetReplaying()
	first := make(chan struct{}, 1)
	guard := func(returned *bool) {
		if *returned || replaying {
			return
		}
		isFirst := false
		select {
		case first <- struct{}{}:
			isFirst = true
		default:
		}
		if judge() != "" {
			_ = recover()
			return
		}
		if !isFirst {
			select {} // the first panic ends the process
		}
	}
	// The calls from two goroutines.
	var ra, rb []interface{}
	var st []pecanvetKV
	start := time.Now()
	var took time.Duration
	returned, _, _ := pecanvetWithin(wait, func() {
		c := mk()
		defer pecanvetCleanup(c)
		done := make(chan struct{})
		go func() {
			defer close(done)
			aReturned := false
			defer guard(&aReturned)
			ra = c.A()
			aReturned = true
		}()
		time.Sleep(time.Millisecond)
		bReturned := false
		func() {
			defer guard(&bReturned)
			rb = c.B()
			bReturned = true
		}()
		if !bReturned {
			return // B panicked, and the oracle skips
		}
		<-done
		took = time.Since(start)
		st = c.State()
	})
	if why := judge(); why != "" {
		// Pecanvet reads this line: the calls together were recorded
		// before the skip, and are not to be predicted from.
		t.Log("` + LateSkipLog + `")
		t.Skip(why)
	}
	if len(first) > 0 {
		select {} // a call's panic, judged an effect, ends the process
	}
	if shared {
		// The calls still ran together (a race needs no oracle), but
		// their outcome is compared with nothing.
		t.Logf("pecanvet driver: the setup of %s returns the same receiver each time (a shared instance): no oracle", calls)
	}
	if !returned {
		t.Skipf("pecanvet driver: calling %s concurrently does not return within %v", calls, wait)
	}
	oracleHolds := !shared && reflect.DeepEqual(seq[0][2], seq[1][2]) && reflect.DeepEqual(seq[2][2], seq[3][2])
	// The comparison: the state must be one that an order leaves.
	if oracleHolds && !reflect.DeepEqual(st, seq[0][2]) && !reflect.DeepEqual(st, seq[2][2]) {
		// A state that changes with time (an item's lifespan expired
		// while a replay's schedule slowed the calls) is no effect of
		// their order: the orders are run again, as slowly, and must
		// still leave what they left.
		slow := took
		if slow > wait/2 {
			slow = wait / 2
		}
		for i, rev := range []bool{false, true} {
			var out [3]interface{}
			var p interface{}
			if ok, _, _ := pecanvetWithin(wait, func() { out, p = pecanvetSeq(mk, rev, slow) }); ok && p == nil && !reflect.DeepEqual(out[2], seq[2*i][2]) {
				t.Skipf("pecanvet driver: the state %s leave changes with time (one after the other, %v later: %s): no oracle", calls, slow.Round(time.Millisecond), pecanvetOutcome(out[0], out[1], out[2]))
			}
		}
		one := pecanvetOutcome(seq[0][0], seq[0][1], seq[0][2])
		if other := pecanvetOutcome(seq[2][0], seq[2][1], seq[2][2]); other != one {
			one += ", or in the other order " + other
		}
		compared = true
		t.Errorf("%s called together %s; called one after the other, they %s", calls, pecanvetOutcome(ra, rb, st), one)
	}
}

// pecanvetOutcome says what two calls returned and left:
// "returned [true] and [false] and left Total() = 2".
func pecanvetOutcome(ra, rb, st interface{}) string {
	s := ""
	if r0, r1 := ra.([]interface{}), rb.([]interface{}); len(r0)+len(r1) > 0 {
		s = fmt.Sprintf("returned %v and %v and ", r0, r1)
	}
	kvs := st.([]pecanvetKV)
	if len(kvs) == 0 {
		return s + "left no observable state"
	}
	s += "left "
	for i, kv := range kvs {
		if i > 0 {
			s += ", "
		}
		if kv.Name == "" {
			s += "state " + pecanvetShow(kv.Value[0])
			continue
		}
		v := fmt.Sprint(kv.Value...)
		if len(kv.Value) > 1 {
			v = fmt.Sprint(kv.Value)
		}
		s += kv.Name + " = " + v
	}
	return s
}

// pecanvetWait bounds each phase of a driver.
const pecanvetWait = 5 * time.Second

// pecanvetWaitFor is the bound of the driver test's phases: pecanvetWait,
// or a second in pecanvet's replays of a driver whose calls did not
// return when recorded (PECANVET_QUICK_DRIVERS names it): after the
// replay's schedule the program runs on the real clock, and each replay
// would sit out the whole bound to skip again.
func pecanvetWaitFor(test string) time.Duration {
	list := pecanvetos.Getenv("PECANVET_QUICK_DRIVERS") + ","
	for i, start := 0, 0; i < len(list); i++ {
		if list[i] == ',' {
			if list[start:i] == test {
				return time.Second
			}
			start = i + 1
		}
	}
	return pecanvetWait
}

// pecanvetWithin runs f on a goroutine of its own and reports whether it
// returned within wait, and whether it ended normally (not by a t.Skip or
// t.Fatal of copied setup code). If not returned, it is left blocked: the
// test is skipped, and its process ends with the recording.
// While pecanvet records, it can tell early that the calls will not
// return within wait (pecanvetQuiet; quiet says it did): a method that
// waits for another call skips in a fraction of a second, not the whole
// wait.
func pecanvetWithin(wait time.Duration, f func()) (returned, ended, quiet bool) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
		ended = true
	}()
	end := time.Now().Add(wait) // before the timer: its own end is not "before end"
	tm := time.NewTimer(wait)
	defer tm.Stop()
	select {
	case <-done:
		return true, ended, false
	case <-tm.C:
		return false, false, false
	case <-pecanvetQuiet(end, done):
		return false, false, true
	}
}

// pecanvetQuiet returns a channel that pecanvet's recorder closes when
// nothing can wake f's calls before end (every goroutine waits for
// another, no timer falls due, nothing recorded for a while): the wait
// would end at the bound anyway. Run as a plain test, never: nil.
func pecanvetQuiet(end time.Time, done chan struct{}) <-chan struct{} { return nil }

// pecanvetReplaying reports whether pecanvet replays a schedule in this
// test (its instrumenter gives it the runtime's answer): then a call's
// panic is not judged before it ends the process. Run as a plain test,
// never.
func pecanvetReplaying() bool { return false }

// pecanvetShow prints a receiver's fields but those of package sync and
// sync/atomic, whose state is the same whenever no call runs.
func pecanvetShow(x interface{}) string {
	v := reflect.ValueOf(x)
	for v.Kind() == reflect.Ptr && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return fmt.Sprintf("%+v", x)
	}
	s := "{"
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if p := f.Type.PkgPath(); p == "sync" || p == "sync/atomic" {
			continue
		}
		if len(s) > 1 {
			s += " "
		}
		s += fmt.Sprintf("%s:%+v", f.Name, v.Field(i))
	}
	return s + "}"
}

// pecanvetCleanup ends a case's receiver as its test does. A panic there
// is not the calls': the test's Release is no cleanup after a Hijack
// took the resource out of its pool (puddle).
func pecanvetCleanup(c pecanvetCase) {
	if c.Cleanup == nil {
		return
	}
	defer func() { _ = recover() }()
	c.Cleanup()
}

// pecanvetGetterPanic records, as the state, that a getter panics (a
// Resource's getters after its Release): it is what the receiver shows.
func pecanvetGetterPanic(s *[]pecanvetKV, name string) {
	if p := recover(); p != nil {
		*s = append(*s, pecanvetKV{name, []interface{}{fmt.Sprintf("panics: %v", p)}})
	}
}

// pecanvetAlone makes one of a case's calls (B with b) and returns its
// panic, if any.
func pecanvetAlone(mk func() pecanvetCase, b bool) (p interface{}) {
	defer func() { p = recover() }()
	c := mk()
	defer pecanvetCleanup(c)
	if b {
		c.B()
	} else {
		c.A()
	}
	return nil
}

func pecanvetSeq(mk func() pecanvetCase, reverse bool, delay time.Duration) (out [3]interface{}, p interface{}) {
	defer func() { p = recover() }()
	c := mk()
	defer pecanvetCleanup(c)
	var ra, rb []interface{}
	if reverse {
		rb = c.B()
		ra = c.A()
	} else {
		ra = c.A()
		rb = c.B()
	}
	time.Sleep(delay)
	return [3]interface{}{ra, rb, c.State()}, nil
}
`

// state returns a function literal reading the observable state of
// recv, a *T (see observers), as []pecanvetKV.
func (g *gen) state(recv string, obs []observer) string {
	if len(obs) == 0 {
		return "func() []pecanvetKV { return []pecanvetKV{{\"\", []interface{}{" + recv + "}}} }"
	}
	var b strings.Builder
	b.WriteString("func() []pecanvetKV {\nv := " + recv + "\nvar s []pecanvetKV\n")
	for _, o := range obs {
		if !o.getter {
			fmt.Fprintf(&b, "s = append(s, pecanvetKV{%q, []interface{}{v.%s}})\n", o.name, o.name)
			continue
		}
		rs := make([]string, o.results)
		for i := range rs {
			rs[i] = "r" + strconv.Itoa(i)
		}
		r := strings.Join(rs, ", ")
		fmt.Fprintf(&b, "func() {\ndefer pecanvetGetterPanic(&s, %q)\n%s := v.%s()\ns = append(s, pecanvetKV{%q, []interface{}{%s}})\n}()\n", o.name+"()", r, o.name, o.name+"()", r)
	}
	b.WriteString("return s\n}")
	return b.String()
}

// driverFunc writes the driver of pr: a test that builds a case (the
// setup copied from a test, else a receiver built as the tests build
// one) and hands it to pecanvetDrive. "" if a method cannot be called.
func (g *gen) driverFunc(named *types.Named, pr *pair, vals *values) string {
	s := pr.setup
	var b strings.Builder
	recv, ptr := "x", "x"
	if s != nil {
		recv, ptr = strings.TrimPrefix(s.recv, "&"), s.recv
	}
	a, c := g.call(named, recv, pr.m0, vals, s, false), g.call(named, recv, pr.m1, vals, s, pr.m0 == pr.m1)
	if a == "" || c == "" {
		return ""
	}
	tname, _ := g.typeName(named)
	fmt.Fprintf(&b, "\n// %s calls %s of *%s from two goroutines", pr.test(), pr.calls(), tname)
	if s != nil {
		fmt.Fprintf(&b, ",\n// set up as %s (%s) sets one up", s.test, s.at)
	} else if pr.noSetup != "" {
		fmt.Fprintf(&b, ".\n// %s", oneLine(pr.noSetup))
	} else if pr.why != "" {
		fmt.Fprintf(&b, ";\n// %s", oneLine(pr.why))
	}
	fmt.Fprintf(&b, ".\nfunc %s(t *testing.T) {\npecanvetDrive(t, %q, func() pecanvetCase {\n", pr.test(), pr.calls())
	var cleanup []string
	why := ""
	if s == nil {
		x := g.receiver(named, vals)
		fmt.Fprintf(&b, "x := %s\n", x)
		why = pr.why
		if pr.noSetup != "" {
			why = strings.TrimSuffix(pr.noSetup, ".")
		}
		if why != "" {
			how := "built as " + strings.TrimSpace(x)
			if strings.HasPrefix(x, "new(") {
				how = "its zero value"
			}
			why += "; the driver's receiver is " + how
		}
	} else {
		which := pr.m0
		if pr.m1 != pr.m0 {
			which += " or " + pr.m1
		}
		if s.before != "" {
			which = s.before + ": its construction of the receiver only"
		}
		fmt.Fprintf(&b, "// From %s (%s), up to its first call of %s.\n", s.test, s.at, which)
		if len(s.dropped) > 0 {
			var lines []string
			for _, l := range s.dropped {
				lines = append(lines, strconv.Itoa(l))
			}
			fmt.Fprintf(&b, "// Left out: line %s, a call of the test's own helper.\n", strings.Join(lines, ", "))
		}
		if len(s.leakChecks) > 0 {
			var lines []string
			for _, l := range s.leakChecks {
				lines = append(lines, strconv.Itoa(l))
			}
			fmt.Fprintf(&b, "// Left out: line %s, a check of the process's goroutines (in a driver it sees the driver's own).\n", strings.Join(lines, ", "))
		}
		if len(s.subtests) > 0 {
			var lines []string
			for _, l := range s.subtests {
				lines = append(lines, strconv.Itoa(l))
			}
			fmt.Fprintf(&b, "// Left out: line %s, the test's subtests.\n", strings.Join(lines, ", "))
		}
		if s.tname != "" {
			fmt.Fprintf(&b, "%s := t\n_ = %s\n", s.tname, s.tname)
		}
		if s.alias != "" && !g.aliased[s.alias] {
			if g.aliased == nil {
				g.aliased = map[string]bool{}
			}
			g.aliased[s.alias] = true
			fmt.Fprintf(&g.helpers, "\n// %s%s is *%s: a variable of the setup of %s shadows %s.\ntype %s%s = *%s\n", aliasPrefix, s.alias, s.alias, s.test, s.alias, aliasPrefix, s.alias, s.alias)
		}
		for _, h := range s.helpers {
			if g.copied[h.obj] {
				continue
			}
			if g.copied == nil {
				g.copied = map[types.Object]bool{}
			}
			g.copied[h.obj] = true
			fmt.Fprintf(&g.helpers, "\n// %s is %s of the package's external test, copied with the setup of %s.\n", helperName(h.obj), h.obj.Name(), s.test)
			for _, n := range h.nodes() {
				g.helpers.WriteString(g.render(s, n) + "\n")
			}
		}
		for _, st := range s.stmts {
			b.WriteString(g.renderStmt(s, st) + "\n")
		}
		for _, v := range s.unused {
			// Used after the cut only. Its address, not its value: a
			// read here would race with what the copied code started
			// (cache2go's TestCallbacks: a timer's callback sets
			// calledRemoveItem under the test's mutex, and `_ =
			// calledRemoveItem` was reported as a race in the driver).
			fmt.Fprintf(&b, "_ = &%s\n", v)
		}
		// Deferred calls run last first, after the test's trailing ones.
		var deferred []string
		for _, c := range s.cleanup {
			text := g.render(s, c.node)
			if c.call {
				text = "(" + text + ")()"
			}
			if c.node.Pos() < s.cut {
				deferred = append([]string{text}, deferred...)
			} else {
				cleanup = append(cleanup, text)
			}
		}
		cleanup = append(cleanup, deferred...)
	}
	// The receiver's end, as the tests end one, when the copied cleanup
	// does not end it: what a case took outside the receiver (a fixed
	// port, a file) is given back before the next case, so every order
	// and the concurrent calls start from the same machine state, and a
	// change of that state by someone else is seen by the orders run
	// again after the concurrent calls ("changes with time"). Without
	// it, tally's vendored thrift driver calling Open and Open of a
	// TServerSocket on 127.0.0.1:9090 left each case's listener open:
	// its orders ran with the port held, the concurrent calls found it
	// free, and the orders run again found it held by the concurrent
	// calls' own listener, so the difference was credited to the
	// interleaving.
	if pr.end != "" && !endsRecv(cleanup, recv, pr.end) {
		cleanup = append(cleanup, recv+"."+pr.end+"()")
	}
	fmt.Fprintf(&b, "return pecanvetCase{\nA: %s,\nB: %s,\nState: %s,\nRecv: %s,\n", a, c, g.state(ptr, pr.obs), ptr)
	if len(cleanup) > 0 {
		fmt.Fprintf(&b, "Cleanup: func() {\n%s\n},\n", strings.Join(cleanup, "\n"))
	}
	if why != "" {
		fmt.Fprintf(&b, "}\n}, %q)\n}\n", why)
	} else {
		b.WriteString("}\n})\n}\n")
	}
	return b.String()
}

// endsRecv reports whether one of the copied cleanup statements calls
// end, or another method ending a value's life (cleanupNames), on recv.
func endsRecv(cleanup []string, recv, end string) bool {
	for _, c := range cleanup {
		if strings.Contains(c, recv+"."+end+"(") {
			return true
		}
		for name := range cleanupNames {
			if strings.Contains(c, recv+"."+name+"(") {
				return true
			}
		}
	}
	return false
}

// emit writes the driver file of pairs for the package pkg.
func emit(pkg *types.Package, pairs []pair, vals *values) (string, []Driver) {
	g := &gen{pkg: pkg, imports: map[string]string{}, vals: vals}
	var body strings.Builder
	var drivers []Driver
	for i := range pairs {
		pr := &pairs[i]
		tn, ok := pkg.Scope().Lookup(pr.typ).(*types.TypeName)
		if !ok {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		named = instance(named, pr.targs)
		src := g.driverFunc(named, pr, vals)
		if src == "" {
			continue
		}
		body.WriteString(src)
		d := Driver{Test: pr.test(), Type: pr.typ, Calls: pr.calls(), Cands: pr.cands, Meant: pr.meant}
		if pr.setup != nil {
			d.Setup = pr.setup.test + " (" + pr.setup.at + ")"
		}
		drivers = append(drivers, d)
	}
	if len(drivers) == 0 {
		return "", nil
	}
	var b strings.Builder
	b.WriteString("// Code generated by pecanvet: test drivers calling two methods of a type from two goroutines. This file exists only in pecanvet's build overlay (pecanvet check -driversdir writes it out).\n\n")
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"fmt\"\n\tpecanvetos \"os\"\n\t\"reflect\"\n\t\"testing\"\n\t\"time\"\n", pkg.Name())
	var paths []string
	for path := range g.imports {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		fmt.Fprintf(&b, "\t%s %q\n", g.imports[path], path)
	}
	b.WriteString(")\n")
	b.WriteString(helper)
	b.WriteString(g.helpers.String())
	b.WriteString(body.String())
	// gofmt it: the copied statements keep the test's indentation.
	if out, err := format.Source([]byte(b.String())); err == nil {
		return string(out), drivers
	}
	return b.String(), drivers
}
