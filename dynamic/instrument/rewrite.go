package instrument

import (
	"fmt"
	"github.com/pecanvet/pecanvet/static/locker"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// Names the rewritten code introduces. None can clash with the user's: Go
// code does not use double underscores in identifiers, and the imports are
// named.
const (
	rtName   = "pecanvetrt__"
	syncName = "pecanvetsync__"
)

// fileRW rewrites one file.
type fileRW struct {
	ins   *instrumenter
	u     *unit
	info  *types.Info
	pkg   *types.Package
	tf    *token.File
	file  *ast.File
	src   []byte
	path  string             // original path
	n     int                // file number in its unit: suffix of the file's helpers
	heap  map[token.Pos]bool // declaring positions of heap-allocated locals
	skip  map[ast.Node]bool  // nodes copied verbatim (the rewrite did not type-check)
	sites []Site
	ntmp  int

	useSync           bool
	hasLineDirectives bool
	keepRefs          map[string]bool // package-level functions whose calls became runtime calls, as the file named them

	fn *funcCtx // the function being rewritten

	selfAppend map[*ast.CallExpr]bool // s = append(s, ...): see builtinAccess
	deferred   *ast.CallExpr          // the call of the defer statement being rewritten: see reflectCall
	discarded  map[*ast.CallExpr]bool // calls whose results the statement drops: see unusedWrapper

	// calledFun is the function operand of the call being rewritten,
	// calledAt its Lparen, where go/ssa puts the call (rt.AfterFuncAt's
	// site).
	calledFun ast.Expr
	calledAt  token.Pos
}

// discard notes that x, if a call, is a statement of its own (or deferred):
// nothing reads its results.
func (w *fileRW) discard(x ast.Expr) {
	if c, ok := unparen(x).(*ast.CallExpr); ok {
		if w.discarded == nil {
			w.discarded = make(map[*ast.CallExpr]bool)
		}
		w.discarded[c] = true
	}
}

// unusedWrapper returns the wrapper of sync/atomic's fn, an Add, And or Or
// (AddInt32, or the method Add) whose result call e discards: it records
// the update with trace.FlagUnused, so that prediction knows no goroutine
// observes the value it read. It returns wrapper unchanged otherwise.
func (w *fileRW) unusedWrapper(e *ast.CallExpr, wrapper string, fn *types.Func) string {
	name := fn.Name()
	update := strings.HasPrefix(name, "Add") || strings.HasPrefix(name, "And") || strings.HasPrefix(name, "Or")
	if update && w.discarded[e] && w.ins.api.has(wrapper+"Unused") {
		return wrapper + "Unused"
	}
	return wrapper
}

// funcCtx is the per-function state.
type funcCtx struct {
	name   string              // "F" or "T.M": names locals in sites
	gotos  map[string]bool     // labels some goto targets
	labels map[string]ast.Stmt // labeled statements, by label
	brk    []ast.Stmt          // enclosing for/range/switch/select, innermost last
	rchan  map[ast.Stmt]string // range-over-channel loops: their break flag
	rgate  map[ast.Stmt]string // range-over-channel loops: the call that gates their next receive
	parent *funcCtx

	results []*ast.Ident // named results on the heap, by index (see heapResults)
}

func newFuncCtx(name string, body *ast.BlockStmt) *funcCtx {
	fc := &funcCtx{name: name, gotos: make(map[string]bool), labels: make(map[string]ast.Stmt), rchan: make(map[ast.Stmt]string), rgate: make(map[ast.Stmt]string)}
	if body != nil {
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				if n.Tok == token.GOTO && n.Label != nil {
					fc.gotos[n.Label.Name] = true
				}
			case *ast.LabeledStmt:
				fc.labels[n.Label.Name] = n.Stmt
			}
			return true
		})
	}
	return fc
}

// h names helper name: the file's site base for "S", else the runtime's
// helper rt.X<name> (rt/helpers.go), compiled once rather than once per
// file.
func (w *fileRW) h(name string) string {
	if name == "S" {
		return "pecanvetS__" + strconv.Itoa(w.n)
	}
	if name == "app" {
		name = "App"
	}
	return rtName + ".X" + name
}

// tmp returns a fresh temporary name.
func (w *fileRW) tmp() string {
	w.ntmp++
	return "pecanvet__" + strconv.Itoa(w.ntmp)
}

// site registers a site and returns the expression that passes its id.
func (w *fileRW) site(pos token.Pos, obj string) string {
	k := len(w.sites)
	w.sites = append(w.sites, Site{Pos: w.ins.relPos(pos), Obj: obj})
	return w.h("S") + "+" + strconv.Itoa(k)
}

// Contexts of an expression.
const (
	cLoad = iota // its value is used: a variable is read
	cAddr        // its address is taken (or it is assigned): not read itself
)

// wrapR reads the location whose address-able text is addr.
func (w *fileRW) wrapR(addr pcs, site string) pcs {
	return gen("(*"+w.h("R")+"(&").cat(addr, gen(", "+site+"))"))
}

// wrapRT is wrapR for the location e: a struct or array read as a whole
// reads each of its parts (see whole).
func (w *fileRW) wrapRT(e ast.Expr, addr pcs, site string) pcs {
	if w.whole(e) {
		return gen("(*"+w.h("RV")+"(&").cat(addr, gen(", "+site+"))"))
	}
	return w.wrapR(addr, site)
}

// expr rewrites e; nil means unchanged.
func (w *fileRW) expr(e ast.Expr, ctx int) pcs {
	if e == nil || w.skipExpr(e) {
		return nil
	}
	switch e := e.(type) {
	case *ast.Ident:
		return w.ident(e, ctx)
	case *ast.ParenExpr:
		return w.nodeSplice(e, rn(e.X, w.expr(e.X, ctx)))
	case *ast.SelectorExpr:
		return w.selector(e, ctx)
	case *ast.IndexExpr:
		return w.index(e, ctx)
	case *ast.StarExpr:
		return w.star(e, ctx)
	case *ast.UnaryExpr:
		return w.unary(e)
	case *ast.BinaryExpr:
		return w.nodeSplice(e, rn(e.X, w.expr(e.X, cLoad)), rn(e.Y, w.expr(e.Y, cLoad)))
	case *ast.CallExpr:
		return w.call(e)
	case *ast.SliceExpr:
		bctx := cLoad
		if _, ok := w.coreOf(e.X).(*types.Array); ok {
			bctx = cAddr
		}
		return w.nodeSplice(e, rn(e.X, w.expr(e.X, bctx)), rn(e.Low, w.expr(e.Low, cLoad)),
			rn(e.High, w.expr(e.High, cLoad)), rn(e.Max, w.expr(e.Max, cLoad)))
	case *ast.TypeAssertExpr:
		return w.nodeSplice(e, rn(e.X, w.expr(e.X, cLoad)))
	case *ast.CompositeLit:
		return w.complit(e)
	case *ast.FuncLit:
		return w.funcLit(e, nil)
	case *ast.KeyValueExpr:
		return w.nodeSplice(e, rn(e.Key, w.expr(e.Key, cLoad)), rn(e.Value, w.expr(e.Value, cLoad)))
	}
	return nil
}

// load is expr in load context, or the original text.
func (w *fileRW) load(e ast.Expr) pcs { return w.or(w.expr(e, cLoad), e) }

func (w *fileRW) ident(e *ast.Ident, ctx int) pcs {
	switch obj := w.info.Uses[e].(type) {
	case *types.Func:
		if r := w.runtimeFunc(obj, e.Pos()); r != "" {
			w.keepRefs[e.Name] = true // dot import: keep the import used
			return genAt(e.Pos(), r)
		}
	case *types.Var:
		if ctx == cLoad && !obj.IsField() && w.sharedVar(obj) && w.plainMemory(e) {
			return w.wrapRT(e, w.origN(e), w.site(e.Pos(), w.describeVar(obj)))
		}
	}
	return nil
}

// runtimeFunc returns what replaces a reference to standard-library
// function fn at pos, or "": os.Exit ends the trace first (rt.Exit),
// a call of time.Sleep is an event that ends a unit of work (rt.SleepAt;
// taken as a value, it is rt.Sleep, no event: a site must be an SSA
// position, and only the call has one), sleeps, time.Now and the timers
// run on replay's virtual clock (rt.Sleep, rt.Now, …), and
// time.AfterFunc and
// context.AfterFunc fork their callback at the call (rt.AfterFuncAt,
// rt.CtxAfterFuncAt).
func (w *fileRW) runtimeFunc(fn *types.Func, pos token.Pos) string {
	called := w.calledFun != nil && w.calledFun.Pos() == pos
	if called {
		pos = w.calledAt // the site is the call's
	}
	switch {
	case isOsExit(fn) && w.ins.api.has("Exit"):
		return rtName + ".Exit"
	case isTimeSleep(fn) && called && w.ins.api.has("SleepAt"):
		return rtName + ".SleepAt(" + w.site(pos, "sleep") + ")"
	case clockFunc(fn) != "" && w.ins.api.has(clockFunc(fn)):
		return rtName + "." + clockFunc(fn)
	case isTimeAfterFunc(fn) && w.ins.api.has("AfterFuncAt"):
		return rtName + ".AfterFuncAt(" + w.site(pos, "time.AfterFunc") + ")"
	case isContextAfterFunc(fn) && w.ins.api.has("CtxAfterFuncAt"):
		return rtName + ".CtxAfterFuncAt(" + w.site(pos, "context.AfterFunc") + ")"
	}
	return ""
}

// baseCtx is the context of the operand x of a field selection or array
// index: x itself is read only if it is a pointer (or not addressable).
func (w *fileRW) baseCtx(x ast.Expr) int {
	if !isPointer(w.typeOf(x)) && w.addressable(x) {
		return cAddr
	}
	return cLoad
}

func (w *fileRW) selector(e *ast.SelectorExpr, ctx int) pcs {
	sel := w.info.Selections[e]
	if sel == nil { // package-qualified identifier
		switch obj := w.info.Uses[e.Sel].(type) {
		case *types.Func:
			if r := w.runtimeFunc(obj, e.Pos()); r != "" {
				w.keepRef(e)
				return genAt(e.Pos(), r)
			}
		case *types.Var:
			if ctx == cLoad && w.plainMemory(e) {
				return w.wrapRT(e, w.origN(e), w.site(e.Sel.Pos(), w.describeVar(obj)))
			}
		}
		return nil
	}
	switch sel.Kind() {
	case types.FieldVal:
		inner := w.nodeSplice(e, rn(e.X, w.expr(e.X, w.baseCtx(e.X))))
		if ctx == cLoad && w.addressable(e) && w.shared(e) && w.plainMemory(e) {
			return w.wrapRT(e, w.or(inner, e), w.site(e.Sel.Pos(), w.describe(e)))
		}
		return inner
	case types.MethodVal:
		if p := w.syncMethodValue(e, sel); p != nil {
			return p
		}
		if p := w.clockMethodValue(e, sel); p != nil {
			return p
		}
		return w.methodRecv(e, sel)
	}
	return nil
}

// methodRecv rewrites x.M, a method value or the callee of a method call,
// with the accesses that evaluating it makes as -race sees them: a
// promoted method loads each embedded pointer field on the way to the
// receiver (d.M with M promoted through an embedded *Base reads d.Base),
// and a method with a value receiver copies the receiver, a read of the
// whole value (of *p when x is a pointer p, of x.Base when promoted
// through an embedded Base), which races with a write of any of its parts.
// A method with a pointer receiver only takes the receiver's address.
func (w *fileRW) methodRecv(e *ast.SelectorExpr, sel *types.Selection) pcs {
	fallback := func() pcs { return w.nodeSplice(e, rn(e.X, w.expr(e.X, w.recvCtx(e, sel)))) }
	fn, ok := sel.Obj().(*types.Func)
	xt := w.typeOf(e.X)
	if !ok || xt == nil || isInterface(xt) || !w.ins.api.has("RV") {
		return fallback()
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return fallback()
	}
	valueRecv := !isPointer(sig.Recv().Type()) && !isInterface(sig.Recv().Type())
	path := sel.Index()[:len(sel.Index())-1]
	if len(path) == 0 && !(valueRecv && isPointer(xt)) {
		return fallback() // x.M on a value x: recvCtx reads x if M copies it
	}
	// The implicit selections and the receiver's load are at the position
	// of the receiver expression, as go/ssa puts them.
	pos := e.X.Pos()
	var text pcs
	shared := true // the memory text denotes is recorded
	switch {
	case isPointer(xt):
		text = gen("(").cat(w.load(e.X), gen(")"))
	case w.addressable(e.X):
		text = gen("(").cat(w.or(w.expr(e.X, cAddr), e.X), gen(")"))
		// A local that does not escape: its own fields are not recorded
		// (the runtime would ignore them); what its pointers point to is.
		shared = w.shared(e.X)
	default:
		return fallback()
	}
	desc := "*" + w.describe(e.X)
	t := xt
	for _, ix := range path {
		dt := deref(t)
		st, ok := coreType(dt).(*types.Struct)
		if !ok || ix >= st.NumFields() {
			return fallback()
		}
		f := st.Field(ix)
		if !f.Exported() && f.Pkg() != w.pkg {
			return fallback()
		}
		owner := "struct"
		if n := namedOf(dt); n != nil {
			owner = n.Obj().Name()
		}
		text = text.cat(gen("." + f.Name()))
		desc = owner + "." + f.Name()
		t = f.Type()
		if isPointer(t) {
			if shared && !isSyncType(dt) {
				text = gen("(*"+w.h("R")+"(&").cat(text, gen(", "+w.site(pos, desc)+"))"))
			}
			shared = true // past a pointer
			desc = "*" + desc
		}
	}
	if valueRecv && shared && !isSyncType(deref(t)) {
		r := "R"
		if w.wholeType(deref(t)) {
			r = "RV"
		}
		amp := "&"
		if isPointer(t) {
			amp = ""
		}
		text = gen("(*"+w.h(r)+"("+amp).cat(text, gen(", "+w.site(pos, desc)+"))"))
	}
	return text.cat(gen("." + e.Sel.Name))
}

// recvCtx is the context of the receiver operand of a method value or call.
func (w *fileRW) recvCtx(e *ast.SelectorExpr, sel *types.Selection) int {
	xt := w.typeOf(e.X)
	if isPointer(xt) || isInterface(xt) || !w.addressable(e.X) {
		return cLoad
	}
	if len(sel.Index()) > 1 {
		return cAddr // promoted through embedded fields
	}
	if fn, ok := sel.Obj().(*types.Func); ok {
		if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && isPointer(sig.Recv().Type()) {
			return cAddr // x.M() with M on *T takes &x
		}
	}
	return cLoad // the receiver is copied
}

func (w *fileRW) index(e *ast.IndexExpr, ctx int) pcs {
	if _, ok := w.coreOf(e.X).(*types.Signature); ok {
		return nil // instantiation of a generic function
	}
	ip := w.expr(e.Index, cLoad)
	switch t := w.coreOf(e.X).(type) {
	case *types.Map:
		if ctx == cLoad {
			site := w.site(e.Lbrack, w.typeStr(w.typeOf(e.X)))
			helper, k := "MR", ""
			if key, ok := w.keyAgain(e.Index); ok {
				helper, k = "MRK", ", "+key
			}
			m := gen(w.h(helper)+"(").cat(w.load(e.X), gen(k+", "+site+")"))
			return w.nodeSplice(e, rn(e.X, m), rn(e.Index, ip))
		}
		return w.nodeSplice(e, rn(e.X, w.expr(e.X, cLoad)), rn(e.Index, ip))
	case *types.Slice, *types.Pointer:
		if p, ok := t.(*types.Pointer); ok {
			if _, ok := p.Elem().Underlying().(*types.Array); !ok {
				break
			}
		}
		inner := w.nodeSplice(e, rn(e.X, w.expr(e.X, cLoad)), rn(e.Index, ip))
		if ctx == cLoad && w.plainMemory(e) {
			return w.wrapRT(e, w.or(inner, e), w.site(e.Lbrack, w.elemDesc(e.X)))
		}
		return inner
	case *types.Array:
		bctx := w.baseCtx(e.X)
		inner := w.nodeSplice(e, rn(e.X, w.expr(e.X, bctx)), rn(e.Index, ip))
		if ctx == cLoad && bctx == cAddr && w.shared(e.X) && w.plainMemory(e) {
			return w.wrapRT(e, w.or(inner, e), w.site(e.Lbrack, w.elemDesc(e.X)))
		}
		return inner
	}
	return w.nodeSplice(e, rn(e.X, w.expr(e.X, cLoad)), rn(e.Index, ip))
}

func (w *fileRW) star(e *ast.StarExpr, ctx int) pcs {
	xp := w.expr(e.X, cLoad)
	if ctx == cLoad && w.plainMemory(e) {
		r := "R"
		if w.whole(e) {
			r = "RV"
		}
		return gen("(*"+w.h(r)+"(").cat(w.or(xp, e.X), gen(", "+w.site(e.Star, w.describe(e))+"))"))
	}
	return w.nodeSplice(e, rn(e.X, xp))
}

func (w *fileRW) unary(e *ast.UnaryExpr) pcs {
	switch e.Op {
	case token.AND:
		if _, ok := unparen(e.X).(*ast.CompositeLit); ok {
			return w.nodeSplice(e, rn(e.X, w.expr(e.X, cLoad)))
		}
		return w.nodeSplice(e, rn(e.X, w.expr(e.X, cAddr)))
	case token.ARROW:
		if w.ins.api.has("Recv") {
			site := w.site(e.OpPos, w.typeStr(w.typeOf(e.X)))
			return genAt(e.Pos(), rtName+".Recv(").cat(w.load(e.X), gen(", "+site+")"))
		}
	}
	return w.nodeSplice(e, rn(e.X, w.expr(e.X, cLoad)))
}

func (w *fileRW) complit(e *ast.CompositeLit) pcs {
	t := w.typeOf(e)
	if t != nil {
		t = deref(t)
	}
	_, isStruct := coreType(t).(*types.Struct)
	var rs []repl
	for _, elt := range e.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if !isStruct {
				rs = append(rs, rn(kv.Key, w.expr(kv.Key, cLoad)))
			}
			rs = append(rs, rn(kv.Value, w.expr(kv.Value, cLoad)))
			continue
		}
		rs = append(rs, rn(elt, w.expr(elt, cLoad)))
	}
	return w.nodeSplice(e, rs...)
}

// addrOf is a pointer to the location e.
func (w *fileRW) addrOf(e ast.Expr) pcs {
	if s, ok := unparen(e).(*ast.StarExpr); ok {
		return w.load(s.X)
	}
	return gen("&").cat(w.or(w.expr(e, cAddr), e))
}

// ---- Calls ----

// callParts is a call taken apart, for calls that are rendered anew (runtime
// wrappers) and for go statements, which evaluate the function and the
// arguments before starting the goroutine.
type callParts struct {
	fun      pcs
	static   bool // the function needs no evaluation (a declared function, a builtin, a method expression)
	lit      *ast.FuncLit
	args     []pcs
	pure     []bool // the argument needs no evaluation (a constant, nil, a site)
	argExprs []ast.Expr
	tuple    bool // the only argument is a multi-value call
	ellipsis bool
}

func (cp *callParts) render() pcs {
	out := cp.fun.cat(gen("("), join(cp.args, ", "))
	if cp.ellipsis {
		out = out.cat(gen("..."))
	}
	return out.cat(gen(")"))
}

func (w *fileRW) call(e *ast.CallExpr) pcs {
	if cp := w.specialCall(e); cp != nil {
		return cp.render()
	}
	if p := w.reflectCall(e); p != nil {
		return p
	}
	if p := w.ioCall(e); p != nil {
		return p
	}
	if fp := w.stdStateFun(e); fp != nil {
		rs := []repl{rn(e.Fun, fp)}
		for _, a := range e.Args {
			rs = append(rs, rn(a, w.expr(a, cLoad)))
		}
		return w.nodeSplice(e, rs...)
	}
	tv := w.info.Types[e.Fun]
	var fp pcs
	switch {
	case tv.IsType(): // conversion
		if p := w.conversionRead(e); p != nil {
			return p
		}
	case tv.IsBuiltin():
		return w.builtinCall(e)
	default:
		outerFun, outerAt := w.calledFun, w.calledAt
		w.calledFun, w.calledAt = unparen(e.Fun), e.Lparen
		fp = w.callee(e.Fun)
		w.calledFun, w.calledAt = outerFun, outerAt
	}
	rs := []repl{rn(e.Fun, fp)}
	for _, a := range e.Args {
		rs = append(rs, rn(a, w.expr(a, cLoad)))
	}
	return w.nodeSplice(e, rs...)
}

// callee rewrites the function operand of a call.
func (w *fileRW) callee(f ast.Expr) pcs {
	switch x := f.(type) {
	case *ast.ParenExpr:
		return w.nodeSplice(x, rn(x.X, w.callee(x.X)))
	case *ast.SelectorExpr:
		if sel := w.info.Selections[x]; sel != nil && sel.Kind() == types.MethodVal {
			if isTestingTRun(sel) && w.ins.api.has("RunEndAt") {
				// t.Run(name, f): the subtest's goroutine is forked by the
				// caller and joined when it ends, and its end writes its T
				// (rt.RunEndAt).
				site := w.site(x.Sel.Pos(), "testing.T.Run")
				return genAt(x.Pos(), rtName+".RunEndAt(").cat(w.load(x.X), gen(", "+site+", "+w.site(x.Sel.Pos(), testingObj)+")"))
			}
			if isTestingTRun(sel) && w.ins.api.has("RunAt") {
				// t.Run(name, f): the subtest's goroutine is forked by the
				// caller and joined when it ends (rt.RunAt).
				return genAt(x.Pos(), rtName+".RunAt(").cat(w.load(x.X), gen(", "+w.site(x.Sel.Pos(), "testing.T.Run")+")"))
			}
			if p := w.clockMethodValue(x, sel); p != nil {
				return p
			}
			return w.methodRecv(x, sel)
		}
	}
	return w.expr(f, cLoad)
}

// clockMethodValue rewrites t.Stop and t.Reset of a *time.Timer or
// *time.Ticker into rt's method values (rt.TimerStop(t)), which know the
// timers of replay's virtual clock.
func (w *fileRW) clockMethodValue(e *ast.SelectorExpr, sel *types.Selection) pcs {
	fn, ok := sel.Obj().(*types.Func)
	if !ok {
		return nil
	}
	name := clockMethod(fn)
	if name == "" || !w.ins.api.has(name) {
		return nil
	}
	recv, _, ok := w.recvPointer(e.X, sel)
	if !ok {
		return nil
	}
	return genAt(e.Pos(), rtName+"."+name+"(").cat(recv, gen(")"))
}

// isTestingTRun reports whether sel selects (*testing.T).Run directly on a
// *testing.T (not promoted through an embedding struct, whose Run takes
// another function type than rt.RunAt infers).
func isTestingTRun(sel *types.Selection) bool {
	fn, ok := sel.Obj().(*types.Func)
	if !ok || fn.Name() != "Run" || fn.Pkg() == nil || fn.Pkg().Path() != "testing" || len(sel.Index()) != 1 {
		return false
	}
	p, ok := sel.Recv().(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Name() == "T" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing"
}

// staticCallee reports whether f denotes a function without evaluating
// anything: a declared function (possibly instantiated), a builtin or a
// method expression.
func (w *fileRW) staticCallee(f ast.Expr) bool {
	switch x := unparen(f).(type) {
	case *ast.Ident:
		switch w.info.Uses[x].(type) {
		case *types.Func, *types.Builtin:
			return true
		}
	case *ast.SelectorExpr:
		sel := w.info.Selections[x]
		if sel == nil {
			_, ok := w.info.Uses[x.Sel].(*types.Func)
			return ok
		}
		return sel.Kind() == types.MethodExpr
	case *ast.IndexExpr:
		return w.staticCallee(x.X)
	case *ast.IndexListExpr:
		return w.staticCallee(x.X)
	}
	return false
}

func (w *fileRW) builtinCall(e *ast.CallExpr) pcs {
	var name string
	if id, ok := unparen(e.Fun).(*ast.Ident); ok {
		if b, ok := w.info.Uses[id].(*types.Builtin); ok {
			name = b.Name()
		}
	}
	if p := w.builtinAccess(e, name); p != nil {
		return p
	}
	if name == "recover" && len(e.Args) == 0 && e != w.deferred && w.ins.api.has("Recovered") {
		// A select's send that panicked on a closed channel is recorded
		// when the panic is recovered (rt.Recovered). recover is still
		// called directly by the deferred function.
		return genAt(e.Pos(), rtName+".Recovered(").cat(w.orig(e.Pos(), e.End()), gen(")"))
	}
	var rs []repl
	for i, a := range e.Args {
		if i == 0 && (name == "delete" || name == "clear") {
			if _, ok := w.coreOf(a).(*types.Map); ok {
				site := w.site(e.Lparen, w.typeStr(w.typeOf(a)))
				helper, k := "MW", ""
				if name == "delete" && len(e.Args) == 2 {
					if key, ok := w.keyAgain(e.Args[1]); ok {
						helper, k = "MWK", ", "+key
					}
				}
				m := gen(w.h(helper)+"(").cat(w.load(a), gen(k+", "+site+")"))
				rs = append(rs, rn(a, m))
				continue
			}
		}
		rs = append(rs, rn(a, w.expr(a, cLoad)))
	}
	return w.nodeSplice(e, rs...)
}

// keepRef remembers how the file referred to a package-level function whose
// uses the rewrite replaces, so that its import stays used.
func (w *fileRW) keepRef(f ast.Expr) {
	switch x := unparen(f).(type) {
	case *ast.Ident:
		w.keepRefs[x.Name] = true
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			w.keepRefs[id.Name+"."+x.Sel.Name] = true
		}
	}
}

// calleeFunc returns the declared function f denotes, if any.
func (w *fileRW) calleeFunc(f ast.Expr) *types.Func {
	switch x := unparen(f).(type) {
	case *ast.Ident:
		fn, _ := w.info.Uses[x].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if w.info.Selections[x] == nil {
			fn, _ := w.info.Uses[x.Sel].(*types.Func)
			return fn
		}
	}
	return nil
}

// syncMethods maps methods of package sync to runtime wrappers.
var syncMethods = map[string]string{
	"Mutex.Lock":       "Lock",
	"Mutex.Unlock":     "Unlock",
	"Mutex.TryLock":    "TryLock",
	"RWMutex.Lock":     "Lock",
	"RWMutex.Unlock":   "Unlock",
	"RWMutex.RLock":    "RLock",
	"RWMutex.RUnlock":  "RUnlock",
	"RWMutex.TryLock":  "TryLock",
	"RWMutex.TryRLock": "TryRLock",
	"Locker.Lock":      "Lock",
	"Locker.Unlock":    "Unlock",
	"WaitGroup.Add":    "WGAdd",
	"WaitGroup.Done":   "WGDone",
	"WaitGroup.Wait":   "WGWait",
	"WaitGroup.Go":     "WGGo",
	"Once.Do":          "OnceDo",
	"Cond.Wait":        "CondWait",
	"Cond.Signal":      "CondSignal",
	"Cond.Broadcast":   "CondBroadcast",
	// sync.Map: atomic accesses of (map, key) (rt/syncmap.go).
	"Map.Load":             "MapLoad",
	"Map.Store":            "MapStore",
	"Map.Delete":           "MapDelete",
	"Map.LoadOrStore":      "MapLoadOrStore",
	"Map.LoadAndDelete":    "MapLoadAndDelete",
	"Map.Swap":             "MapSwap",
	"Map.CompareAndSwap":   "MapCompareAndSwap",
	"Map.CompareAndDelete": "MapCompareAndDelete",
	"Map.Range":            "MapRange",
	// sync.Pool: a deterministic stack while recorded (rt/pool.go).
	"Pool.Get": "PoolGet",
	"Pool.Put": "PoolPut",
}

// randGen maps math/rand and math/rand/v2 to the runtime function that
// returns the calling goroutine's generator of that package (rt/rand.go).
var randGen = map[string]string{"math/rand": "Rand1", "math/rand/v2": "Rand2"}

// randFuncs are the top-level functions of either package that are also
// methods of its Rand, and keep no state of their own there (Read does:
// it is left to the global generator, as is Seed).
var randFuncs = map[string]bool{
	"Int": true, "Intn": true, "IntN": true, "Int31": true, "Int31n": true, "Int32": true, "Int32N": true,
	"Int63": true, "Int63n": true, "Int64": true, "Int64N": true, "Uint": true, "UintN": true,
	"Uint32": true, "Uint32N": true, "Uint64": true, "Uint64N": true, "Float32": true, "Float64": true,
	"NormFloat64": true, "ExpFloat64": true, "Perm": true, "Shuffle": true,
}

// syncFuncs are the functions of package sync that the runtime wraps:
// OnceFunc and its kin record the once, so that f happens before every
// return of the function they make.
var syncFuncs = map[string]bool{"OnceFunc": true, "OnceValue": true, "OnceValues": true}

// syncWrapper returns the runtime wrapper of method fn of a sync or
// sync/atomic type ("" if there is none), and the type's name.
func (w *fileRW) syncWrapper(fn *types.Func) (wrapper, typeName string) {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || fn.Pkg() == nil {
		return "", ""
	}
	n := namedOf(sig.Recv().Type())
	if n == nil {
		return "", ""
	}
	tn := n.Obj().Name()
	var name string
	switch fn.Pkg().Path() {
	case "sync":
		name = syncMethods[tn+"."+fn.Name()]
	case "sync/atomic":
		name = tn + fn.Name()
	}
	if name == "" || !w.ins.api.has(name) {
		return "", ""
	}
	return name, tn
}

// specialCall maps a call to a runtime wrapper: channel close, sync
// methods, sync/atomic functions and methods. It returns nil for other
// calls.
func (w *fileRW) specialCall(e *ast.CallExpr) *callParts {
	if e.Ellipsis.IsValid() {
		return nil
	}
	fun := unparen(e.Fun)
	mk := func(wrapper string, recv pcs, args []ast.Expr, site string) *callParts {
		cp := &callParts{fun: genAt(e.Pos(), rtName+"."+wrapper), static: true}
		if recv != nil {
			cp.args = append(cp.args, recv)
			cp.pure = append(cp.pure, false)
			cp.argExprs = append(cp.argExprs, nil)
		}
		for _, a := range args {
			cp.args = append(cp.args, w.load(a))
			cp.pure = append(cp.pure, w.isPure(a))
			cp.argExprs = append(cp.argExprs, a)
		}
		cp.args = append(cp.args, gen(site))
		cp.pure = append(cp.pure, true)
		cp.argExprs = append(cp.argExprs, nil)
		return cp
	}
	if id, ok := fun.(*ast.Ident); ok {
		if b, ok := w.info.Uses[id].(*types.Builtin); ok {
			if b.Name() == "close" && len(e.Args) == 1 && w.ins.api.has("Close") {
				return mk("Close", nil, e.Args, w.site(e.Lparen, w.typeStr(w.typeOf(e.Args[0]))))
			}
			return nil
		}
	}
	if fn := w.calleeFunc(fun); fn != nil {
		if fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" && w.ins.api.has(fn.Name()) && len(e.Args) > 0 {
			w.keepRef(fun)
			return mk(w.unusedWrapper(e, fn.Name(), fn), nil, e.Args, w.site(e.Lparen, w.describe(e.Args[0])))
		}
		if gen := randGen[fn.Pkg().Path()]; gen != "" && randFuncs[fn.Name()] && w.ins.api.has(gen) {
			// A draw from the calling goroutine's own generator (rt/rand.go).
			if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() == nil && sig.TypeParams().Len() == 0 {
				w.keepRef(fun)
				cp := &callParts{fun: genAt(e.Pos(), rtName+"."+gen+"()."+fn.Name()), static: true}
				for _, a := range e.Args {
					cp.args = append(cp.args, w.load(a))
					cp.pure = append(cp.pure, w.isPure(a))
					cp.argExprs = append(cp.argExprs, a)
				}
				return cp
			}
		}
		if isRuntimeAddCleanup(fn) && w.ins.api.has("AddCleanup") && len(e.Args) == 3 {
			if _, explicit := unparen(e.Fun).(*ast.IndexExpr); !explicit {
				// Keep the import used with a non-generic function of it.
				switch x := fun.(type) {
				case *ast.SelectorExpr:
					if id, ok := x.X.(*ast.Ident); ok {
						w.keepRefs[id.Name+".GC"] = true
					}
				case *ast.Ident:
					w.keepRefs["GC"] = true
				}
				return mk("AddCleanup", nil, e.Args, w.site(e.Lparen, "runtime.AddCleanup"))
			}
		}
		if fn.Pkg() != nil && fn.Pkg().Path() == "sync" && syncFuncs[fn.Name()] && w.ins.api.has(fn.Name()) && len(e.Args) == 1 {
			if _, explicit := unparen(e.Fun).(*ast.IndexExpr); !explicit {
				// Keep the import used with a non-generic function of it.
				switch x := fun.(type) {
				case *ast.SelectorExpr:
					if id, ok := x.X.(*ast.Ident); ok {
						w.keepRefs[id.Name+".OnceFunc"] = true
					}
				case *ast.Ident:
					w.keepRefs["OnceFunc"] = true
				}
				return mk(fn.Name(), nil, e.Args, w.site(e.Lparen, "sync."+fn.Name()))
			}
		}
		return nil
	}
	sx, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	sel := w.info.Selections[sx]
	if sel == nil {
		return nil
	}
	fn, ok := sel.Obj().(*types.Func)
	if !ok {
		return nil
	}
	wrapper, _ := w.syncWrapper(fn)
	if wrapper == "" && locker.Method(fn) && sel.Kind() == types.MethodVal && len(e.Args) == 0 && w.ins.api.has(fn.Name()) {
		// A lock of the user's own (locker.Method), called directly.
		recv, desc, ok := w.recvPointer(sx.X, sel)
		if !ok || isInterface(w.typeOf(sx.X)) && len(sel.Index()) == 1 {
			return nil
		}
		return mk(fn.Name(), recv, nil, w.site(e.Lparen, desc))
	}
	if wrapper == "" {
		return nil
	}
	switch sel.Kind() {
	case types.MethodVal:
		recv, desc, ok := w.recvPointer(sx.X, sel)
		if !ok {
			return nil
		}
		switch wrapper {
		case "Lock", "Unlock", "RLock", "RUnlock":
			// A mutex also accessed as a value: Lock and Unlock update
			// its word (rt.LockWord).
			if v := w.mutexVar(sx.X); v != nil && len(sel.Index()) == 1 && w.mutexValues()[v] && w.ins.api.has(wrapper+"Word") {
				wrapper += "Word"
			}
		}
		if fn.Pkg().Path() == "sync/atomic" {
			wrapper = w.unusedWrapper(e, wrapper, fn)
		}
		return mk(wrapper, recv, e.Args, w.site(e.Lparen, desc))
	case types.MethodExpr:
		if len(e.Args) == 0 {
			return nil
		}
		if !isPointer(w.typeOf(e.Args[0])) && !isInterface(w.typeOf(e.Args[0])) {
			return nil
		}
		return mk(wrapper, nil, e.Args, w.site(e.Lparen, w.describe(&ast.StarExpr{X: e.Args[0]})))
	}
	return nil
}

// recvPointer returns a pointer to (or, for an interface, the value of) the
// receiver of method selection x.M, following embedded fields, and a
// description of it.
func (w *fileRW) recvPointer(x ast.Expr, sel *types.Selection) (pcs, string, bool) {
	path := sel.Index()[:len(sel.Index())-1]
	xt := w.typeOf(x)
	if xt == nil {
		return nil, "", false
	}
	direct := isPointer(xt) || isInterface(xt)
	if len(path) == 0 {
		if direct {
			return w.load(x), w.describe(x), true
		}
		if !w.addressable(x) {
			return nil, "", false
		}
		return gen("&").cat(w.or(w.expr(x, cAddr), x)), w.describe(x), true
	}
	var text pcs
	switch {
	case isPointer(xt):
		text = w.load(x)
	case w.addressable(x):
		text = w.or(w.expr(x, cAddr), x)
	default:
		return nil, "", false
	}
	t := xt
	desc := ""
	for _, ix := range path {
		dt := deref(t)
		st, ok := coreType(dt).(*types.Struct)
		if !ok || ix >= st.NumFields() {
			return nil, "", false
		}
		f := st.Field(ix)
		if !f.Exported() && f.Pkg() != w.pkg {
			return nil, "", false
		}
		owner := "struct"
		if n := namedOf(dt); n != nil {
			owner = n.Obj().Name()
		}
		desc = owner + "." + f.Name()
		text = text.cat(gen("." + f.Name()))
		t = f.Type()
	}
	if isPointer(t) || isInterface(t) {
		return text, desc, true
	}
	return gen("&").cat(text), desc, true
}

// syncMethodValue rewrites a method value of a sync type (mu.Unlock used as
// a function value) into a closure over the receiver, evaluated now, that
// calls the runtime wrapper.
func (w *fileRW) syncMethodValue(e *ast.SelectorExpr, sel *types.Selection) pcs {
	fn, ok := sel.Obj().(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return nil
	}
	wrapper, tn := w.syncWrapper(fn)
	if wrapper == "" || tn == "Map" {
		return nil // a sync.Map method value is left as it is
	}
	recv, desc, ok := w.recvPointer(e.X, sel)
	if !ok {
		return nil
	}
	ptype := "*" + syncName + "." + tn
	if tn == "Locker" {
		ptype = syncName + ".Locker"
	}
	w.useSync = true
	site := w.site(e.Sel.Pos(), desc)
	const p = "pecanvetp__"
	var lit string
	switch wrapper {
	case "TryLock", "TryRLock":
		lit = fmt.Sprintf("func() bool { return %s.%s(%s, %s) }", rtName, wrapper, p, site)
	case "WGAdd":
		lit = fmt.Sprintf("func(d int) { %s.%s(%s, d, %s) }", rtName, wrapper, p, site)
	case "WGGo", "OnceDo":
		lit = fmt.Sprintf("func(f func()) { %s.%s(%s, f, %s) }", rtName, wrapper, p, site)
	case "PoolGet": // interface{}, not any: modules older than go1.18
		lit = fmt.Sprintf("func() interface{} { return %s.%s(%s, %s) }", rtName, wrapper, p, site)
	case "PoolPut":
		lit = fmt.Sprintf("func(x interface{}) { %s.%s(%s, x, %s) }", rtName, wrapper, p, site)
	default:
		lit = fmt.Sprintf("func() { %s.%s(%s, %s) }", rtName, wrapper, p, site)
	}
	sig := lit[:strings.Index(lit, " {")]
	return genAt(e.Pos(), fmt.Sprintf("func(%s %s) %s { return %s }(", p, ptype, sig, lit)).cat(recv, gen(")"))
}

// goParts takes the call of a go statement apart.
func (w *fileRW) goParts(call *ast.CallExpr) *callParts {
	if cp := w.specialCall(call); cp != nil {
		return cp
	}
	cp := &callParts{ellipsis: call.Ellipsis.IsValid()}
	fun := unparen(call.Fun)
	if w.info.Types[call.Fun].IsType() {
		return nil
	}
	switch {
	case isFuncLit(fun):
		cp.lit = fun.(*ast.FuncLit)
	case w.staticCallee(fun):
		cp.static = true
		cp.fun = w.or(w.expr(call.Fun, cLoad), call.Fun)
	default:
		cp.fun = w.or(w.callee(call.Fun), call.Fun)
	}
	for _, a := range call.Args {
		cp.args = append(cp.args, w.load(a))
		cp.pure = append(cp.pure, w.isPure(a))
		cp.argExprs = append(cp.argExprs, a)
	}
	if len(call.Args) == 1 {
		if _, ok := w.typeOf(call.Args[0]).(*types.Tuple); ok {
			cp.tuple = true
		}
	}
	return cp
}

func isFuncLit(e ast.Expr) bool {
	_, ok := e.(*ast.FuncLit)
	return ok
}

// funcLit rewrites a function literal; insert goes at the start of its body.
func (w *fileRW) funcLit(e *ast.FuncLit, insert pcs) pcs {
	saved := w.fn
	name := "func"
	if saved != nil {
		name = saved.name
	}
	w.fn = newFuncCtx(name, e.Body)
	w.fn.parent = saved
	w.fn.results = w.heapResults(e.Type)
	body := w.blockIns(e.Body, insert.cat(w.resultReads(w.fn.results)))
	w.fn = saved
	return w.nodeSplice(e, rn(e.Body, body))
}

// untypedRisk reports whether a temporary declared as `t := e` could get
// another type than the one e has in its context (e's final type is
// final): e is an untyped boolean or shifted untyped constant whose
// context gives it a type other than the default.
func (w *fileRW) untypedRisk(e ast.Expr, final types.Type) bool {
	switch x := unparen(e).(type) {
	case *ast.BinaryExpr:
		switch x.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
			return !isBool(final)
		case token.SHL, token.SHR:
			if w.isPure(x.X) {
				return final != types.Typ[types.Int]
			}
			return false
		}
		rx := w.isPure(x.X) || w.untypedRisk(x.X, final)
		ry := w.isPure(x.Y) || w.untypedRisk(x.Y, final)
		return rx && ry
	case *ast.UnaryExpr:
		if x.Op == token.NOT || x.Op == token.SUB || x.Op == token.XOR || x.Op == token.ADD {
			return w.untypedRisk(x.X, final)
		}
	}
	return false
}

// typeable reports whether `t := e` gives t e's own type, so that t can
// stand for e wherever e stood.
func (w *fileRW) typeable(e ast.Expr) bool {
	t := w.typeOf(e)
	if t == nil {
		return false
	}
	// A generic function instantiated by its context (f assigned to a
	// func(int) variable) cannot be held uninstantiated.
	switch x := unparen(e).(type) {
	case *ast.Ident:
		if _, ok := w.info.Instances[x]; ok {
			return false
		}
	case *ast.SelectorExpr:
		if _, ok := w.info.Instances[x.Sel]; ok {
			return false
		}
	}
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		return false
	}
	return !w.untypedRisk(e, t)
}

// hasEffects reports whether evaluating e calls a function or receives
// (so that the order of e and an access matters).
func hasEffects(e ast.Node) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			found = true
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				found = true
			}
		}
		return !found
	})
	return found
}
