package driver

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/pecanvet/pecanvet/static/locker"
)

// A use is one place where the package's own code (not its tests) names
// method m of a type: the selector, the function declaration or literal
// it is in (innermost), and whether it is called there through an
// interface of the package rather than on the type itself.
type use struct {
	sel     *ast.SelectorExpr
	called  bool          // the selector is the callee of a call
	fn      *ast.FuncDecl // the declaration it is in; nil outside one
	lit     *ast.FuncLit  // the innermost function literal around it, if any
	viaFace bool
}

// usesOf lists the uses of named's method m in p's non-test files: on
// named (or a type embedding it: the selection's method is m's), and
// through an interface declared in p that *named implements. ok is false
// when the method cannot be found.
func usesOf(p *packages.Package, named *types.Named, m string) (uses []use, ok bool) {
	if p.TypesInfo == nil {
		return nil, false
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), false, named.Obj().Pkg(), m)
	meth, _ := obj.(*types.Func)
	if meth == nil {
		return nil, false
	}
	ptr := types.NewPointer(named)
	for _, f := range p.Syntax {
		if strings.HasSuffix(p.Fset.Position(f.Pos()).Filename, "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			// A use outside a function (a package variable's
			// initializer) has no fn: both rules refuse it.
			var root ast.Node = d
			fd, _ := d.(*ast.FuncDecl)
			if fd != nil {
				if fd.Body == nil {
					continue
				}
				root = fd.Body
			}
			callees := map[*ast.SelectorExpr]bool{}
			var lits []*ast.FuncLit
			ast.Inspect(root, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
						callees[sel] = true
					}
				case *ast.FuncLit:
					lits = append(lits, n)
				case *ast.SelectorExpr:
					if n.Sel.Name != m {
						return true
					}
					s := p.TypesInfo.Selections[n]
					if s == nil || (s.Kind() != types.MethodVal && s.Kind() != types.MethodExpr) {
						return true
					}
					u := use{sel: n, fn: fd}
					if iface, ok := s.Recv().Underlying().(*types.Interface); ok {
						if !declaredIn(s.Recv(), p.Types) || !types.Implements(ptr, iface) {
							return true
						}
						u.viaFace = true
					} else if fn, ok := s.Obj().(*types.Func); !ok || fn.Origin() != meth.Origin() {
						return true
					}
					// The innermost literal around it: lits holds those
					// entered so far, outer ones first.
					for i := len(lits) - 1; i >= 0; i-- {
						if lits[i].Pos() <= n.Pos() && n.End() <= lits[i].End() {
							u.lit = lits[i]
							break
						}
					}
					uses = append(uses, u)
				}
				return true
			})
			for i := range uses {
				if uses[i].fn == fd && callees[uses[i].sel] {
					uses[i].called = true
				}
			}
		}
	}
	return uses, true
}

// teardownNames are the names of methods that end a value's use.
var teardownNames = map[string]bool{"Close": true, "Stop": true, "Shutdown": true}

// ownerTeardown names the method ("Cache.Close") whose teardown the
// teardown method m of named, an unexported type, is a step of, or "":
// m is named Close, Stop or Shutdown, and the package calls it (on the
// type or through an interface of the package) only from one teardown
// method of an exported type, its owner; never elsewhere, and never as
// a method value. Users cannot call m: the package calls it only at the
// end of its owner's teardown, after the steps before it (ristretto's
// Cache.Close clears the cache and stops its goroutine before it closes
// its defaultPolicy, whose Push then sends on the closed channel). Beside
// the type's other methods it is the driver's guess of a use the package
// never makes; whether the owner's teardown may overlap the owner's use
// is the owner's contract, and the owner's exported methods are
// candidates' contexts of their own, driven as the owner.
func ownerTeardown(p *packages.Package, named *types.Named, m string) string {
	if named.Obj().Exported() || !teardownNames[m] {
		return ""
	}
	uses, ok := usesOf(p, named, m)
	if !ok || len(uses) == 0 {
		return ""
	}
	owner := ""
	for _, u := range uses {
		if !u.called || u.fn == nil || u.lit != nil || u.fn.Recv == nil || !teardownNames[u.fn.Name.Name] {
			return ""
		}
		fn, ok := p.TypesInfo.Defs[u.fn.Name].(*types.Func)
		if !ok {
			return ""
		}
		recv := fn.Type().(*types.Signature).Recv()
		if recv == nil || sameNamed(recv.Type(), named) {
			return ""
		}
		t := recv.Type()
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		on, ok := types.Unalias(t).(*types.Named)
		if !ok || !on.Obj().Exported() {
			return ""
		}
		name := on.Obj().Name() + "." + fn.Name()
		if owner != "" && owner != name {
			return ""
		}
		owner = name
	}
	return owner
}

// reuseHook names the function ("AllocatorPool.Get") in which the
// package calls method m of named, a reset or an initializer (named
// Reset… or Init…), only on a
// value it is about to hand out, or "": every use of m in the package's own code calls it on a
// variable declared in that function (not a parameter or receiver, which
// others may hold), and the function later returns that variable; none
// calls it through an interface, as a method value or on anything else;
// the variable's value is fresh or handed over (handedOver).
// ristretto's AllocatorPool.Get takes an Allocator from its pool and
// calls Reset, which rewinds it to reuse every byte it handed out, before
// it returns it: the package resets a value only before anyone else
// shares it, as a constructor would, and a driver calling Reset beside
// Allocate makes a use the package never makes (the same memory handed
// out twice, whatever the interleaving). A method that users call on a
// value in use (a gauge's Reset called while others count) has callers
// in the package that are not this shape, or none, and is driven as
// before. colly's Collector.Init, which NewCollector alone calls, on the
// collector it has just made and returns, is the initializer's case: a
// driver calling Init beside Visit re-initializes a collector in use,
// which the package never does (trial 19: eight reports, all of them
// such pairs).
func reuseHook(p *packages.Package, named *types.Named, m string) string {
	if !strings.HasPrefix(m, "Reset") && !strings.HasPrefix(m, "Init") {
		return ""
	}
	uses, ok := usesOf(p, named, m)
	if !ok || len(uses) == 0 {
		return ""
	}
	where := ""
	for _, u := range uses {
		if !u.called || u.viaFace || u.fn == nil {
			return ""
		}
		id, ok := ast.Unparen(u.sel.X).(*ast.Ident)
		if !ok {
			return ""
		}
		v, ok := p.TypesInfo.Uses[id].(*types.Var)
		if !ok {
			return ""
		}
		var body *ast.BlockStmt
		name := u.fn.Name.Name
		if u.lit != nil {
			body, name = u.lit.Body, "a function literal in "+name
		} else {
			body = u.fn.Body
			if u.fn.Recv != nil && len(u.fn.Recv.List) > 0 {
				if fn, ok := p.TypesInfo.Defs[u.fn.Name].(*types.Func); ok {
					if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
						t := recv.Type()
						if ptr, ok := t.(*types.Pointer); ok {
							t = ptr.Elem()
						}
						if on, ok := types.Unalias(t).(*types.Named); ok {
							name = on.Obj().Name() + "." + name
						}
					}
				}
			}
		}
		// Declared in the body (a parameter's or receiver's value is
		// the caller's, who may share it), from a fresh or handed-over
		// value (a field's or a global's is shared).
		if v.Pos() < body.Lbrace || v.Pos() > body.Rbrace || !handedOver(p, body, v) {
			return ""
		}
		returned := false
		ast.Inspect(body, func(n ast.Node) bool {
			if returned {
				return false
			}
			if lit, ok := n.(*ast.FuncLit); ok && lit != u.lit {
				return false // another function's returns
			}
			ret, ok := n.(*ast.ReturnStmt)
			if !ok || ret.Pos() < u.sel.End() {
				return true
			}
			for _, r := range ret.Results {
				if rid, ok := ast.Unparen(r).(*ast.Ident); ok && p.TypesInfo.Uses[rid] == v {
					returned = true
				}
			}
			return true
		})
		if !returned {
			return ""
		}
		switch {
		case where == "":
			where = name
		case !strings.Contains(where, name):
			where += " and " + name
		}
	}
	return where
}

// endOf returns the method of pr that ownerTeardown or reuseHook keeps
// from drivers, and why, or "", "".
func endOf(p *packages.Package, named *types.Named, pr *pair) (string, string) {
	for _, m := range []string{pr.m0, pr.m1} {
		if owner := ownerTeardown(p, named, m); owner != "" {
			return m, "the package calls it only in " + owner + ", as a step of its owner's teardown (drive the owner's methods)"
		}
		if where := reuseHook(p, named, m); where != "" {
			return m, "the package calls it only in " + where + ", on a value it then hands out, before anyone shares it"
		}
	}
	return "", ""
}

// handedOver reports whether local variable v of body gets its value,
// where it is declared, from a channel receive (what a channel hands
// over is the receiver's), a call (a pool's Get, a constructor), a
// composite literal or new, or a type assertion of a call's result
// (sync.Pool's Get().(*T)): a value no one else holds yet. A value read
// from a field or a global is shared, and so is anything else.
func handedOver(p *packages.Package, body *ast.BlockStmt, v *types.Var) bool {
	fresh := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if ta, ok := e.(*ast.TypeAssertExpr); ok {
			e = ast.Unparen(ta.X)
		}
		switch x := e.(type) {
		case *ast.CallExpr:
			return true
		case *ast.CompositeLit:
			return true
		case *ast.UnaryExpr:
			if x.Op == token.ARROW {
				return true
			}
			if x.Op == token.AND {
				_, ok := ast.Unparen(x.X).(*ast.CompositeLit)
				return ok
			}
		}
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE {
			return true
		}
		for i, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || p.TypesInfo.Defs[id] != v {
				continue
			}
			switch {
			case len(as.Rhs) == len(as.Lhs):
				found = fresh(as.Rhs[i])
			case len(as.Rhs) == 1 && i == 0:
				// a, ok := <-ch; a, err := get()
				found = fresh(as.Rhs[0])
			}
		}
		return !found
	})
	return found
}

// testTeardowns returns, per type of the package path (by name), the
// method the package's tests (in the given test variants) end a value of
// it with: a method without parameters that a test defers on it or calls
// in a t.Cleanup function (tally's vendored thrift: `defer
// newSocket.Interrupt()` on a TServerSocket), else a Close, Stop or
// Shutdown a test calls on it. Not a lock's Unlock, nor a method of
// package sync an embedded field promotes.
//
// A driver calls it at the end of each case (see driverFunc): a case
// that leaves its receiver open holds what it took outside the receiver
// (a fixed TCP port, a file) while the next cases run, so the orders no
// longer start alike, and the calls' outcome is compared with orders run
// on a different machine state.
func testTeardowns(path string, tests []*packages.Package) map[string]string {
	deferred := map[string]map[string]int{}
	named := map[string]map[string]int{}
	add := func(m map[string]map[string]int, typ, meth string) {
		if m[typ] == nil {
			m[typ] = map[string]int{}
		}
		m[typ][meth]++
	}
	for _, p := range tests {
		if p == nil || p.TypesInfo == nil {
			continue
		}
		// teardown returns the type and method of call if it is a call
		// of a method of the package without parameters.
		teardown := func(call *ast.CallExpr) (string, string, bool) {
			fn, _ := typeutil.Callee(p.TypesInfo, call).(*types.Func)
			if fn == nil || fn.Pkg() == nil || locker.Method(fn) || syncMethod(fn) || !fn.Exported() {
				return "", "", false
			}
			sig := fn.Type().(*types.Signature)
			if sig.Recv() == nil || sig.Params().Len() != 0 || fn.Name() == "Unlock" || fn.Name() == "RUnlock" {
				return "", "", false
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return "", "", false
			}
			n := namedOf(p.TypesInfo.TypeOf(sel.X))
			if n == nil || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != path {
				return "", "", false
			}
			// The method as the value's type has it (an embedded
			// field's, promoted, counts as the type's own).
			return n.Obj().Name(), fn.Name(), true
		}
		// inDeferred records the teardowns called in the body of f, a
		// deferred or t.Cleanup function literal.
		inDeferred := func(f ast.Node) {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if typ, m, ok := teardown(call); ok {
						add(deferred, typ, m)
					}
				}
				return true
			})
		}
		for i, f := range p.Syntax {
			if i >= len(p.CompiledGoFiles) || !strings.HasSuffix(p.CompiledGoFiles[i], "_test.go") {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.DeferStmt:
					if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
						inDeferred(lit.Body)
					} else if typ, m, ok := teardown(n.Call); ok {
						add(deferred, typ, m)
					}
					return false
				case *ast.CallExpr:
					if fn, _ := typeutil.Callee(p.TypesInfo, n).(*types.Func); fn != nil && fn.Name() == "Cleanup" && fn.Pkg() != nil && fn.Pkg().Path() == "testing" && len(n.Args) == 1 {
						inDeferred(n.Args[0])
						return false
					}
					if typ, m, ok := teardown(n); ok && teardownNames[m] {
						add(named, typ, m)
					}
				}
				return true
			})
		}
	}
	out := map[string]string{}
	for _, from := range []map[string]map[string]int{named, deferred} { // deferred ones win
		for typ, ms := range from {
			best := ""
			for m, k := range ms {
				if best == "" || k > ms[best] || k == ms[best] && m < best {
					best = m
				}
			}
			out[typ] = best
		}
	}
	return out
}
