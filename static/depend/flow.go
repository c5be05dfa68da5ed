package depend

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A scope is one activation's code: its function and the functions it
// calls that record no activation of their own (plain functions,
// closures), whose calls stay inside it. Calls of methods are other
// activations.
type scope struct {
	root *ssa.Function
	fns  map[*ssa.Function]bool
	// own are the functions of fns that run in the activation's own
	// goroutine: not only reached through a go statement. A call of a
	// method in a goroutine the activation starts is no activation the
	// unit's frames hold, nor is its result the activation's.
	own map[*ssa.Function]bool
}

func (x *Index) scope(root *ssa.Function) *scope {
	if sc, ok := x.scopes[root]; ok {
		return sc
	}
	sc := &scope{root: root, fns: map[*ssa.Function]bool{}}
	work := []*ssa.Function{root}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		if fn == nil || fn.Blocks == nil || sc.fns[fn] {
			continue
		}
		sc.fns[fn] = true
		work = append(work, fn.AnonFuncs...)
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if c, ok := in.(ssa.CallInstruction); ok {
					if g := callee(c); g != nil && !x.frame[g] {
						work = append(work, g)
					}
				}
			}
		}
	}
	sc.own = x.ownFuncs(root)
	x.scopes[root] = sc
	return sc
}

// ownFuncs is the scope of root without what only a go statement runs:
// the anonymous functions whose every use starts a goroutine, and the
// plain functions only go statements call.
func (x *Index) ownFuncs(root *ssa.Function) map[*ssa.Function]bool {
	own := map[*ssa.Function]bool{}
	work := []*ssa.Function{root}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		if fn == nil || fn.Blocks == nil || own[fn] {
			continue
		}
		own[fn] = true
		for _, a := range fn.AnonFuncs {
			if !goOnly(a) {
				work = append(work, a)
			}
		}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if _, ok := in.(*ssa.Go); ok {
					continue
				}
				if c, ok := in.(ssa.CallInstruction); ok {
					if g := callee(c); g != nil && !x.frame[g] {
						work = append(work, g)
					}
				}
			}
		}
	}
	return own
}

// goOnly reports whether every use of the anonymous function a (or of
// its closure) is a go statement's function.
func goOnly(a *ssa.Function) bool {
	started := func(v ssa.Value, refs *[]ssa.Instruction) bool {
		if refs == nil || len(*refs) == 0 {
			return false
		}
		for _, r := range *refs {
			g, ok := r.(*ssa.Go)
			if !ok || g.Call.Value != v {
				return false
			}
		}
		return true
	}
	refs := a.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.MakeClosure:
			if r.Fn != a || !started(r, r.Referrers()) {
				return false
			}
		case *ssa.Go:
			if r.Call.Value != a {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// calls returns the call sites of g within sc.
func (x *Index) callsIn(sc *scope, g *ssa.Function) []ssa.CallInstruction {
	var out []ssa.CallInstruction
	for _, cs := range x.calls[g] {
		if sc.fns[cs.fn] {
			out = append(out, cs.in)
		}
	}
	return out
}

// ownCalls is callsIn restricted to the calls sc's activation makes in
// its own goroutine (no go statement, none in a goroutine it starts): the
// ones that can be the activation below it in an event's frames, whose
// result is the one the activation gets back.
func (x *Index) ownCalls(sc *scope, g *ssa.Function) []ssa.CallInstruction {
	var out []ssa.CallInstruction
	for _, cs := range x.calls[g] {
		if _, started := cs.in.(*ssa.Go); started {
			continue
		}
		if sc.own[cs.fn] {
			out = append(out, cs.in)
		}
	}
	return out
}

// taint is what one value decides within a scope: the values computed
// from it, the local variables holding it, the blocks whose execution it
// decides, and whether the activation's result depends on it.
type taint struct {
	x      *Index
	sc     *scope
	vals   map[ssa.Value]bool
	mem    map[ssa.Value]bool // local variables (Allocs) holding a tainted value
	ctrl   map[*ssa.BasicBlock]bool
	result bool
	// use is where a tainted value is first put to use (a branch, a
	// store, a send, an index, the result), for used; decisive, where it
	// is first used otherwise than copied (decided).
	use, decisive token.Pos
	// data is where a tainted value is first used otherwise than as a
	// branch's condition: kept, handed on or chosen by (dataUse).
	data token.Pos
	// tested: a tainted value reaches a branch.
	tested bool
	// dataOnly: follow values only, not the blocks a branch decides
	// (nor the phis those paths choose): does a value reach another's
	// value or address, whatever path it took.
	dataOnly bool
	work     []ssa.Value
	// seeds are the reads the taint starts from: a value stored back
	// into the variable it was read from (an increment) is not a use.
	seeds []ssa.Value
	// cut are instructions the taint does not enter (flowsCut).
	cut map[ssa.Instruction]bool
}

func (x *Index) newTaint(sc *scope) *taint {
	return &taint{x: x, sc: sc, vals: map[ssa.Value]bool{}, mem: map[ssa.Value]bool{}, ctrl: map[*ssa.BasicBlock]bool{}}
}

// add taints v (and what follows from it, once run).
func (t *taint) add(v ssa.Value) {
	if v == nil || t.vals[v] {
		return
	}
	t.vals[v] = true
	t.work = append(t.work, v)
}

func (t *taint) used(pos token.Pos) {
	if !pos.IsValid() {
		pos = token.Pos(1) // used, at no position of its own
	}
	if !t.use.IsValid() {
		t.use = pos
	}
	if !t.data.IsValid() {
		t.data = pos
	}
}

// decided records a decisive use: a branch, an access it chooses, a
// panic, a call of another method; not a copy into memory or a channel.
func (t *taint) decided(pos token.Pos) {
	t.used(pos)
	if !pos.IsValid() {
		pos = token.Pos(1)
	}
	if !t.decisive.IsValid() {
		t.decisive = pos
	}
}

// run propagates the taint to a fixed point.
func (t *taint) run() {
	for len(t.work) > 0 {
		v := t.work[len(t.work)-1]
		t.work = t.work[:len(t.work)-1]
		if t.mem[v] {
			t.memory(v)
		}
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			if !t.sc.fns[r.Parent()] || t.cut[r] {
				continue
			}
			t.refer(v, r)
		}
	}
}

// valuePos is where v is computed. A comma-ok's flag (an Extract, which
// has no position of its own) is at the lookup, assertion or receive
// that yields it: `if c, ok := g.m[key]; ok` branches on the lookup.
func valuePos(v ssa.Value) token.Pos {
	if e, ok := v.(*ssa.Extract); ok && !e.Pos().IsValid() {
		return e.Tuple.Pos()
	}
	return v.Pos()
}

// memory taints the loads of a local variable that holds a tainted value.
func (t *taint) memory(a ssa.Value) {
	refs := a.Referrers()
	if refs == nil {
		return
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op == token.MUL {
				t.add(r)
			}
		case *ssa.FieldAddr, *ssa.IndexAddr:
			v := r.(ssa.Value)
			if !t.mem[v] {
				t.mem[v] = true
				t.memory(v)
			}
		}
	}
}

// local reports whether addr is (a part of) a variable of the function
// itself, not shared memory.
func local(addr ssa.Value) ssa.Value {
	for {
		switch a := addr.(type) {
		case *ssa.Alloc:
			return a
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			if _, ok := a.X.Type().Underlying().(*types.Pointer); !ok {
				return nil // a slice's elements are elsewhere
			}
			addr = a.X
		default:
			return nil
		}
	}
}

func (t *taint) refer(v ssa.Value, r ssa.Instruction) {
	switch r := r.(type) {
	case *ssa.If:
		// A test is a use, but no data use: what it decides is
		// followed as control.
		data := t.data
		t.decided(valuePos(r.Cond))
		t.data = data
		t.tested = true
		t.branch(r.Block())
	case *ssa.Store:
		if r.Val == v {
			if a := local(r.Addr); a != nil {
				t.taintMem(a)
				return
			}
		}
		if r.Addr == v {
			t.decided(r.Pos())
		} else if !t.self(r.Addr, nil) {
			t.used(r.Pos())
		}
	case *ssa.MapUpdate:
		if r.Map == v || r.Key == v {
			t.decided(r.Pos())
		} else if !t.self(r.Map, r.Key) {
			t.used(r.Pos())
		}
	case *ssa.Send:
		t.used(r.Pos())
	case *ssa.Panic:
		t.decided(r.Pos())
	case *ssa.Return:
		t.returned(r)
	case ssa.CallInstruction:
		t.call(v, r)
	case *ssa.Jump, *ssa.DebugRef, *ssa.RunDefers:
	case ssa.Value:
		switch r := r.(type) {
		case *ssa.IndexAddr, *ssa.Index, *ssa.Lookup:
			// An index or key computed from the value chooses what is
			// accessed.
			t.decided(r.Pos())
		case *ssa.FieldAddr, *ssa.UnOp:
			if u, ok := r.(*ssa.UnOp); !ok || u.Op == token.MUL {
				t.decided(r.Pos())
			}
		}
		t.add(r)
	}
}

// seed taints the value of a read, and remembers it for self.
func (t *taint) seed(v ssa.Value) {
	t.seeds = append(t.seeds, v)
	t.add(v)
}

// self reports whether a store to addr (or a map update of key in the
// map addr) writes back the variable one of the seeds read.
func (t *taint) self(addr, key ssa.Value) bool {
	for _, s := range t.seeds {
		switch s := s.(type) {
		case *ssa.UnOp:
			if sameAddr(s.X, addr) {
				return true
			}
		case *ssa.Lookup:
			if key != nil && s.X == addr && s.Index == key {
				return true
			}
		}
	}
	return false
}

// sameAddr reports whether a and b are the address of one variable:
// the same value, or the same field or element of the same base.
func sameAddr(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	switch a := a.(type) {
	case *ssa.FieldAddr:
		b, ok := b.(*ssa.FieldAddr)
		return ok && a.Field == b.Field && sameAddr(a.X, b.X)
	case *ssa.IndexAddr:
		b, ok := b.(*ssa.IndexAddr)
		return ok && a.Index == b.Index && a.X == b.X
	case *ssa.UnOp:
		b, ok := b.(*ssa.UnOp)
		return ok && a.Op == token.MUL && b.Op == token.MUL && sameAddr(a.X, b.X)
	}
	return false
}

// taintMem marks a local variable as holding a tainted value.
func (t *taint) taintMem(a ssa.Value) {
	if t.mem[a] {
		return
	}
	t.mem[a] = true
	t.memory(a)
}

// returned handles a return of a tainted value (or one in a decided
// block): the activation's result when it is the scope's own function,
// else the value of the calls of that plain function.
func (t *taint) returned(r *ssa.Return) {
	fn := r.Parent()
	if fn == t.sc.root {
		// A return that yields no value hands nothing on: a method
		// without results whose early return a check decides has no
		// result to mix with a later read (ants' purgeStaleWorkers,
		// reported as an "inconsistent result").
		if len(r.Results) > 0 {
			t.result = true
		}
		return
	}
	for _, c := range t.x.callsIn(t.sc, fn) {
		if v := c.Value(); v != nil {
			t.add(v)
		}
	}
}

// call handles a tainted argument: a plain function of the scope gets it
// as its parameter; a method of the package called on a concrete
// receiver passes it to its result when its body does (passes); any
// other call (an interface method, code without a body here) is taken
// to compute its result from it.
func (t *taint) call(v ssa.Value, c ssa.CallInstruction) {
	com := c.Common()
	g := callee(c)
	// dataOnly takes a plain function's result from its arguments at
	// each call: its body, shared by every call, would hand one call's
	// argument to another call's result.
	// A pure function (pureArith) is taken likewise in every mode: its
	// result is its arguments' alone, per call.
	if g != nil && t.sc.fns[g] && !t.dataOnly && !pureArith(g) {
		args := com.Args
		if com.Value == v && len(g.FreeVars) > 0 {
			return
		}
		for i, a := range args {
			if a == v && i < len(g.Params) {
				t.add(g.Params[i])
			}
		}
		return
	}
	if _, ok := c.(*ssa.Call); !ok || g != nil && (t.x.frame[g] || g.Pkg != nil && g.Pkg.Pkg.Path() == "sync/atomic") {
		// Handed to another activation or goroutine, or stored
		// atomically: put to use.
		t.decided(c.Pos())
	}
	r := c.Value()
	if r == nil {
		return
	}
	if g != nil && t.x.frame[g] && !com.IsInvoke() {
		// A method of the package, called on a concrete receiver: its
		// result carries the arguments that reach it in its body, not
		// every argument (lossyconn's trySendBatch returns whether it
		// admitted the packets, not the delay it was given).
		for i, a := range com.Args {
			if a == v && t.x.passes(g, i, t.dataOnly) {
				t.add(r)
				return
			}
		}
		return
	}
	t.add(r)
}

type passKey struct {
	fn       *ssa.Function
	param    int
	dataOnly bool
}

// passes reports whether fn's result depends on its i'th parameter
// (receiver first): a taint of the parameter in fn's activation reaches
// its result, by data and, unless dataOnly, by control; not through the
// heap, as within an activation. A method that calls itself back through
// another method is taken to pass everything on (the summary it asks for
// is still being computed); one that calls itself directly is followed
// within its own scope.
func (x *Index) passes(fn *ssa.Function, i int, dataOnly bool) bool {
	if i >= len(fn.Params) {
		return true
	}
	k := passKey{fn, i, dataOnly}
	if p, ok := x.passed[k]; ok {
		return p
	}
	x.passed[k] = true
	t := x.newTaint(x.scope(fn))
	t.dataOnly = dataOnly
	t.add(fn.Params[i])
	t.run()
	x.passed[k] = t.result
	return t.result
}

// branch marks the blocks that the branch ending block a decides, and
// what follows from their being decided: the branches they end, the
// calls of plain functions they make, the results they return, the local
// variables they set, and the phis where they meet.
func (t *taint) branch(a *ssa.BasicBlock) {
	if t.dataOnly {
		return
	}
	t.phis(a)
	for _, y := range t.x.controlDeps(a.Parent()).dep[a.Index] {
		t.decide(a.Parent().Blocks[y])
	}
}

func (t *taint) decide(b *ssa.BasicBlock) {
	if t.ctrl[b] {
		return
	}
	t.ctrl[b] = true
	t.phis(b)
	for _, in := range b.Instrs {
		switch in := in.(type) {
		case *ssa.Return:
			t.returned(in)
		case *ssa.Store:
			if a := local(in.Addr); a != nil {
				t.taintMem(a)
			}
		case *ssa.If:
			t.branch(b)
		case ssa.CallInstruction:
			// A pure function decided does nothing but yield its
			// call's value, which the phis after the block carry.
			if g := callee(in); g != nil && t.sc.fns[g] && g != b.Parent() && !pureArith(g) {
				for _, gb := range g.Blocks {
					t.decide(gb)
				}
			}
		}
	}
}

// phis taints the phis of b's successors: which value they take depends
// on the path through b.
func (t *taint) phis(b *ssa.BasicBlock) {
	for _, s := range b.Succs {
		for _, in := range s.Instrs {
			phi, ok := in.(*ssa.Phi)
			if !ok {
				break
			}
			t.add(phi)
		}
	}
}
