package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Type helpers.

func unparen(e ast.Expr) ast.Expr { return ast.Unparen(e) }

func deref(t types.Type) types.Type {
	if p, ok := types.Unalias(t).Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// coreType returns the underlying type of t, or for a type parameter the
// single underlying type of all types in its type set (nil if there is none).
func coreType(t types.Type) types.Type {
	t = types.Unalias(t)
	tp, ok := t.(*types.TypeParam)
	if !ok {
		return t.Underlying()
	}
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var core types.Type
	for i := 0; i < iface.NumEmbeddeds(); i++ {
		var terms []types.Type
		switch e := iface.EmbeddedType(i).(type) {
		case *types.Union:
			for j := 0; j < e.Len(); j++ {
				terms = append(terms, e.Term(j).Type())
			}
		default:
			terms = append(terms, e)
		}
		for _, term := range terms {
			u := coreType(term)
			if u == nil {
				return nil
			}
			if _, isIface := u.(*types.Interface); isIface {
				continue
			}
			if core == nil {
				core = u
			} else if !types.Identical(core, u) {
				return nil
			}
		}
	}
	return core
}

func isPointer(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := coreType(t).(*types.Pointer)
	return ok
}

func isInterface(t types.Type) bool {
	if t == nil {
		return false
	}
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return true
	}
	_, ok := t.Underlying().(*types.Interface)
	return ok
}

// namedOf returns the named type t or *t, if any.
func namedOf(t types.Type) *types.Named {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, _ := t.(*types.Named)
	return n
}

// isSyncType reports whether t (or *t) is a type of package sync or
// sync/atomic: values of those types are touched through their methods
// (which the instrumenter maps to runtime calls), never as plain memory.
func isSyncType(t types.Type) bool {
	n := namedOf(t)
	if n == nil || n.Obj().Pkg() == nil {
		return false
	}
	switch n.Obj().Pkg().Path() {
	case "sync", "sync/atomic":
		return true
	}
	return false
}

func isOsExit(fn *types.Func) bool {
	return fn.Pkg() != nil && fn.Pkg().Path() == "os" && fn.Name() == "Exit"
}

// isTimeAfterFunc reports whether fn is time.AfterFunc, whose callback
// the runtime forks at the call (rt.AfterFuncAt).
func isTimeAfterFunc(fn *types.Func) bool {
	return fn.Pkg() != nil && fn.Pkg().Path() == "time" && fn.Name() == "AfterFunc"
}

// isTimeSleep reports whether fn is time.Sleep, whose calls are events of
// their own (rt.SleepAt): a sleep ends the goroutine's unit of work.
func isTimeSleep(fn *types.Func) bool {
	return fn.Pkg() != nil && fn.Pkg().Path() == "time" && fn.Name() == "Sleep"
}

// isRuntimeAddCleanup reports whether fn is runtime.AddCleanup, whose
// cleanups the runtime forks at the call (rt.AddCleanup): the runtime runs
// them on goroutines the program does not start.
func isRuntimeAddCleanup(fn *types.Func) bool {
	return fn.Pkg() != nil && fn.Pkg().Path() == "runtime" && fn.Name() == "AddCleanup"
}

// isContextAfterFunc reports whether fn is context.AfterFunc, whose
// callback the runtime forks at the call (rt.CtxAfterFuncAt).
func isContextAfterFunc(fn *types.Func) bool {
	return fn.Pkg() != nil && fn.Pkg().Path() == "context" && fn.Name() == "AfterFunc"
}

// clockFuncs are the functions of package time that read or wait on the
// clock: replay runs them on a virtual clock (rt's vclock.go), under the
// same names in rt.
var clockFuncs = map[string]bool{
	"Sleep": true, "Now": true, "Since": true, "Until": true,
	"NewTimer": true, "NewTicker": true, "After": true, "Tick": true,
}

// clockFunc returns the rt function standing for fn, a function of package
// time on the clock or context.WithTimeout or WithDeadline, or "".
func clockFunc(fn *types.Func) string {
	if fn.Pkg() == nil {
		return ""
	}
	switch fn.Pkg().Path() {
	case "time":
		if !clockFuncs[fn.Name()] {
			return ""
		}
	case "context":
		if fn.Name() != "WithTimeout" && fn.Name() != "WithDeadline" {
			return ""
		}
	default:
		return ""
	}
	if sig, ok := fn.Type().(*types.Signature); !ok || sig.Recv() != nil {
		return ""
	}
	return fn.Name()
}

// clockMethod returns the rt function standing for the method value of
// fn, Stop or Reset of a *time.Timer or *time.Ticker, or "".
func clockMethod(fn *types.Func) string {
	if fn.Pkg() == nil || fn.Pkg().Path() != "time" || fn.Name() != "Stop" && fn.Name() != "Reset" {
		return ""
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	p, ok := sig.Recv().Type().(*types.Pointer)
	if !ok {
		return ""
	}
	n, ok := p.Elem().(*types.Named)
	if !ok || n.Obj().Name() != "Timer" && n.Obj().Name() != "Ticker" {
		return ""
	}
	return n.Obj().Name() + fn.Name()
}

// isBool reports whether t is the predeclared bool.
func isBool(t types.Type) bool { return t == types.Typ[types.Bool] }

func (w *fileRW) typeOf(e ast.Expr) types.Type { return w.info.TypeOf(e) }

func (w *fileRW) coreOf(e ast.Expr) types.Type {
	t := w.typeOf(e)
	if t == nil {
		return nil
	}
	return coreType(t)
}

// skipExpr reports whether e is not code that runs: a type, a constant, a
// builtin or nil.
func (w *fileRW) skipExpr(e ast.Expr) bool {
	tv, ok := w.info.Types[e]
	return ok && (tv.IsType() || tv.Value != nil || tv.IsBuiltin() || tv.IsNil())
}

// isPure reports whether evaluating e has no effect and no dependence on
// when it happens (constants and nil).
func (w *fileRW) isPure(e ast.Expr) bool {
	tv, ok := w.info.Types[e]
	return ok && (tv.Value != nil || tv.IsNil())
}

// keyAgain returns the text of map key e when evaluating it a second time,
// for the record of the element the access touches (rt.RK, rt.WK), gives
// the same key and does nothing else: a constant, nil, or a local variable
// no other goroutine reaches (its read is not recorded). Other keys are
// recorded as an access of the whole map: coarser, never apart.
func (w *fileRW) keyAgain(e ast.Expr) (string, bool) {
	if !w.keyHelpers() {
		return "", false
	}
	text := string(w.src[w.off(e.Pos()):w.off(e.End())])
	if strings.ContainsAny(text, "\n\r") {
		return "", false // generated text holds no newline
	}
	switch x := unparen(e).(type) {
	case *ast.BasicLit:
		return text, true
	case *ast.Ident:
		if w.isPure(x) {
			return text, true // a named constant or nil
		}
		if v, ok := w.info.Uses[x].(*types.Var); ok && !v.IsField() && !w.sharedVar(v) {
			return text, true
		}
	case *ast.SelectorExpr:
		if tv, ok := w.info.Types[x]; ok && tv.Value != nil {
			return text, true // pkg.Const
		}
	}
	return "", false
}

// valAgain returns the text of e, the value a map element's store
// stores, when evaluating it a second time, for the record of its
// identity (rt.XMWKV), gives the same value and does nothing else: a
// constant or nil, or a local variable no other goroutine reaches
// (keyAgain's). Else "".
func (w *fileRW) valAgain(e ast.Expr) string {
	if w.isPure(e) {
		if text := string(w.src[w.off(e.Pos()):w.off(e.End())]); !strings.ContainsAny(text, "\n\r") {
			return text
		}
		return ""
	}
	text, _ := w.keyAgain(e)
	return text
}

// valIdentified reports whether a store in map x records the stored
// value's identity (rt.XMWKV, rt.ValID): the runtime has the helper and
// the map's element type is, underneath, a pointer, channel, map, func,
// unsafe.Pointer, boolean, integer or float, whose bits are the value.
// Not an interface (its data word may be a box's address, and its
// dynamic type is a second word), a string, a complex number or a
// composite value, nor a type parameter (its type argument may be any).
func (w *fileRW) valIdentified(x ast.Expr) bool {
	if !w.keyHelpers() || !w.ins.api.has("XMWKV") || !w.ins.api.has("WKV") {
		return false
	}
	m, ok := w.coreOf(x).(*types.Map)
	if !ok {
		return false
	}
	if _, ok := types.Unalias(m.Elem()).(*types.TypeParam); ok {
		return false
	}
	switch u := m.Elem().Underlying().(type) {
	case *types.Pointer, *types.Chan, *types.Map, *types.Signature:
		return true
	case *types.Basic:
		i := u.Info()
		return i&(types.IsBoolean|types.IsInteger|types.IsFloat) != 0 && i&types.IsUntyped == 0 || u.Kind() == types.UnsafePointer
	}
	return false
}

// lenRecorded reports whether a store in the variable e records the
// stored slice's length (rt.XWL, trace.FlagLen): the runtime has the
// helper and e's type is, underneath, a slice, not a type parameter
// (whose core type a store converts to). A predicate on the length a
// check read (`len(q.items) < 1`) is then known on the values the
// replay's trace shows stored (static/depend's lenAlike).
func (w *fileRW) lenRecorded(e ast.Expr) bool {
	if !w.ins.api.has("XWL") || !w.ins.api.has("WL") {
		return false
	}
	t := w.typeOf(e)
	if t == nil {
		return false
	}
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return false
	}
	_, ok := t.Underlying().(*types.Slice)
	return ok
}

// keyHelpers reports whether the runtime records map elements' keys (the
// file's tail then has pecanvetMRK and its kin).
func (w *fileRW) keyHelpers() bool {
	return w.ins.api.has("RK") && w.ins.api.has("WK") && w.ins.api.has("KeyHash")
}

// addressable reports whether e denotes a variable (Go's addressability).
func (w *fileRW) addressable(e ast.Expr) bool {
	switch e := unparen(e).(type) {
	case *ast.Ident:
		v, ok := w.info.Uses[e].(*types.Var)
		return ok && !v.IsField()
	case *ast.SelectorExpr:
		sel := w.info.Selections[e]
		if sel == nil {
			_, ok := w.info.Uses[e.Sel].(*types.Var)
			return ok
		}
		if sel.Kind() != types.FieldVal {
			return false
		}
		return sel.Indirect() || isPointer(w.typeOf(e.X)) || w.addressable(e.X)
	case *ast.IndexExpr:
		switch t := w.coreOf(e.X).(type) {
		case *types.Slice:
			return true
		case *types.Pointer:
			_, ok := t.Elem().Underlying().(*types.Array)
			return ok
		case *types.Array:
			return w.addressable(e.X)
		}
		return false
	case *ast.StarExpr:
		return !w.skipExpr(e)
	}
	return false
}

// shared reports whether the variable e denotes may be reached by another
// goroutine: a package-level variable, a local that SSA puts on the heap,
// anything reached through a pointer or a slice, or a part of such a
// variable. e must be addressable.
func (w *fileRW) shared(e ast.Expr) bool {
	switch e := unparen(e).(type) {
	case *ast.Ident:
		v, ok := w.info.Uses[e].(*types.Var)
		return ok && w.sharedVar(v)
	case *ast.SelectorExpr:
		sel := w.info.Selections[e]
		if sel == nil {
			return true // package-qualified variable
		}
		return sel.Indirect() || isPointer(w.typeOf(e.X)) || w.shared(e.X)
	case *ast.IndexExpr:
		switch w.coreOf(e.X).(type) {
		case *types.Slice, *types.Pointer:
			return true
		case *types.Array:
			return w.shared(e.X)
		}
		return false
	case *ast.StarExpr:
		return true
	}
	return false
}

func (w *fileRW) sharedVar(v *types.Var) bool {
	if v.IsField() {
		return false
	}
	if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return true
	}
	return w.heap[v.Pos()]
}

// fieldOwner returns the name of the struct type that declares the field
// selected by sel ("struct" for an unnamed one).
func fieldOwner(sel *types.Selection) (owner string, field *types.Var) {
	t := sel.Recv()
	for _, ix := range sel.Index() {
		t = deref(t)
		name := "struct"
		if n := namedOf(t); n != nil {
			name = n.Obj().Name()
		}
		st, ok := coreType(t).(*types.Struct)
		if !ok || ix >= st.NumFields() {
			return name, nil
		}
		owner, field = name, st.Field(ix)
		t = field.Type()
	}
	return owner, field
}

// typeStr renders t for a site description: packages by name, the
// instrumented package's own types unqualified.
func (w *fileRW) typeStr(t types.Type) string {
	if t == nil {
		return "?"
	}
	return types.TypeString(t, func(p *types.Package) string {
		if p == w.pkg {
			return ""
		}
		return p.Name()
	})
}

// describeVar names a variable for a site: "pkg.v" for package-level ones,
// "F.v" (or "T.M.v") for locals.
func (w *fileRW) describeVar(v *types.Var) string {
	if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return v.Pkg().Name() + "." + v.Name()
	}
	fn := "func"
	if w.fn != nil {
		fn = w.fn.name
	}
	return fn + "." + v.Name()
}

// describe names the location e denotes: a variable, a field "T.f", an
// element "[]int elem", a map by its type, a pointee "*x".
func (w *fileRW) describe(e ast.Expr) string {
	e = unparen(e)
	switch x := e.(type) {
	case *ast.Ident:
		if v, ok := w.info.Uses[x].(*types.Var); ok {
			return w.describeVar(v)
		}
	case *ast.SelectorExpr:
		sel := w.info.Selections[x]
		if sel == nil {
			if v, ok := w.info.Uses[x.Sel].(*types.Var); ok {
				return w.describeVar(v)
			}
			break
		}
		if sel.Kind() == types.FieldVal {
			owner, f := fieldOwner(sel)
			if f != nil {
				return owner + "." + f.Name()
			}
		}
	case *ast.IndexExpr:
		if _, ok := w.coreOf(x.X).(*types.Map); ok {
			return w.typeStr(w.typeOf(x.X))
		}
		return w.elemDesc(x.X)
	case *ast.StarExpr:
		return "*" + w.describe(x.X)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return w.describe(x.X)
		}
	}
	return w.typeStr(w.typeOf(e))
}

// elemDesc describes an element of the slice, array or pointer to array x.
func (w *fileRW) elemDesc(x ast.Expr) string {
	t := w.typeOf(x)
	if p, ok := coreType(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return w.typeStr(t) + " elem"
}

// plainMemory reports whether the location e is plain memory that the
// instrumenter records reads and writes of: not a value of a sync or
// sync/atomic type, nor a field of one (sync.Cond.L).
func (w *fileRW) plainMemory(e ast.Expr) bool {
	if t := w.typeOf(e); isSyncType(t) && !(isMutexValue(t) && w.ins.api.has("LockWord")) {
		// A mutex read or written as a whole value is plain memory to
		// the race detector, racing with its Lock and Unlock (see
		// mutexValues); other sync values are only used through their
		// methods.
		return false
	}
	if s, ok := unparen(e).(*ast.SelectorExpr); ok {
		if sel := w.info.Selections[s]; sel != nil {
			if _, f := fieldOwner(sel); f != nil && f.Pkg() != nil {
				switch f.Pkg().Path() {
				case "sync", "sync/atomic":
					return false
				}
			}
		}
	}
	return true
}

// whole reports whether the location e is a struct or an array, whose read
// or write as a whole value (a copy) accesses each of its parts: the
// runtime records one access per part (rt.RV, rt.WV), so that the copy
// conflicts with an access of one field or element.
func (w *fileRW) whole(e ast.Expr) bool { return w.wholeType(w.typeOf(e)) }

// wholeType is whole for a location of type t.
func (w *fileRW) wholeType(t types.Type) bool {
	if t == nil || !w.ins.api.has("RV") || !w.ins.api.has("WV") {
		return false
	}
	switch coreType(t).(type) {
	case *types.Struct, *types.Array:
		return true
	}
	return false
}

// isMutexValue reports whether t is sync.Mutex or sync.RWMutex itself (not
// a pointer to one).
func isMutexValue(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync" {
		return false
	}
	return n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex"
}

// mutexVar returns the variable or field that e, of type sync.Mutex or
// sync.RWMutex, names (an identifier or a field selection), or nil.
func (w *fileRW) mutexVar(e ast.Expr) *types.Var {
	if !isMutexValue(w.typeOf(e)) {
		return nil
	}
	switch x := unparen(e).(type) {
	case *ast.Ident:
		v, _ := w.info.Uses[x].(*types.Var)
		return v
	case *ast.SelectorExpr:
		if sel := w.info.Selections[x]; sel != nil && sel.Kind() == types.FieldVal {
			v, _ := sel.Obj().(*types.Var)
			return v
		}
	}
	return nil
}

// atomicVars returns the descriptions (Site.Obj: "T.f", "pkg.v") of the
// struct fields and package variables whose address the unit's code
// passes to a function of sync/atomic. A quiet dep's plain accesses
// (another module's: unit.quiet) are not recorded (rt.RegisterQuiet), but a plain access of a word the package
// itself updates atomically races with those updates whichever package's
// tests run them (go-timer's scheduler read its counters plainly while
// its workers added to them), and the race detector flags it: such
// accesses are recorded. Computed once per unit, from the unit alone, so
// that a dep's rewritten files do not depend on what imports it.
func (w *fileRW) atomicVars() map[string]bool {
	if w.u.atomics != nil {
		return w.u.atomics
	}
	set := map[string]bool{}
	for _, f := range w.u.files {
		if f.syntax == nil {
			continue
		}
		ast.Inspect(f.syntax, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			fn := w.calleeFunc(call.Fun)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" || fn.Type().(*types.Signature).Recv() != nil {
				return true
			}
			addr, ok := unparen(call.Args[0]).(*ast.UnaryExpr)
			if !ok || addr.Op != token.AND {
				return true
			}
			switch x := unparen(addr.X).(type) {
			case *ast.SelectorExpr:
				if sel := w.info.Selections[x]; sel != nil {
					if sel.Kind() == types.FieldVal {
						if owner, f := fieldOwner(sel); f != nil {
							set[owner+"."+f.Name()] = true
						}
					}
				} else if v, ok := w.info.Uses[x.Sel].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
					set[w.describeVar(v)] = true
				}
			case *ast.Ident:
				if v, ok := w.info.Uses[x].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
					set[w.describeVar(v)] = true
				}
			}
			return true
		})
	}
	w.u.atomics = set
	return set
}

// mutexValues returns the mutex variables and fields (sync.Mutex,
// sync.RWMutex) that the unit's code reads or writes as a whole value
// (mu = sync.Mutex{}, m := mu, f(mu)), not only through their methods or
// address: the race detector sees such an access race with Lock and
// Unlock, which update the mutex's word atomically, so their Lock and
// Unlock record that update (rt.LockWord). Computed once per unit.
func (w *fileRW) mutexValues() map[*types.Var]bool {
	if w.u.mutexVals != nil {
		return w.u.mutexVals
	}
	set := map[*types.Var]bool{}
	for _, f := range w.u.files {
		if f.syntax == nil {
			continue
		}
		var stack []ast.Node
		ast.Inspect(f.syntax, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			var parent ast.Node
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			stack = append(stack, n)
			e, ok := n.(ast.Expr)
			if !ok {
				return true
			}
			switch p := parent.(type) {
			case *ast.SelectorExpr:
				if p.X == e || p.Sel == e {
					return true // mu.Lock, x.mu: a method or field of it, or the field's name
				}
			case *ast.UnaryExpr:
				if p.Op == token.AND {
					return true // &mu
				}
			case *ast.KeyValueExpr:
				if p.Key == e {
					return true // S{mu: ...}: a field's name
				}
			}
			if v := w.mutexVar(e); v != nil {
				set[v] = true
			}
			return true
		})
	}
	w.u.mutexVals = set
	return set
}
