package depend

import (
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// superseded reports whether b, the unit's read-back of the counter it
// added to at a, is a gauge's reading that the replay shows superseded
// (Event.Superseded): a is an atomic add, every other goroutine's write
// of the counter between a and b is one too (check fills Superseded only
// then), b's value goes nowhere but into the stored values of some
// locations (storedOnly: no branch, address, index, key, send, call of
// code without a body here, nor the unit's result), and for each such
// store the replay's trace shows every goroutine that added between
// read the counter at b's site after its add and then stored the same
// object at the same site, after the unit's store, and the unit never
// reads that object after its store. istio's Cache.Set
// adds to its write count, loads it and sets the writes gauge to it.
//
// Sound: the interleaving changes only the value b reads, the count with
// the others' adds in it as well as the unit's own. That value reaches
// nothing but the stored locations, so it decides nothing and is handed
// to no one but through them. Each is overwritten, after the unit's
// store, by a goroutine that added between, from its own read of the
// counter after both adds: the location ends as the serial order with
// the unit first leaves it (last writer wins). Until then it holds the
// count at b, which is what it holds after the unit in the serial order
// with the others' adds first (adds commute; a's result is the unit's
// own business and b is not it). An id generator (`n.Add(1); id :=
// n.Load()`) returns the id, compares it, keys a map with it or stores
// it in an object of its own item, which no other goroutine stores at
// the same site, or keeps it in a shared field and reads it from there:
// it stays a stale read-back (testdata/src's counterid). The value is
// not followed through the heap, so the trace's condition that the unit
// reads no stored object again stands in for that.
func (x *Index) superseded(a, b Event) bool {
	if len(b.Superseded) == 0 || !b.Read || b.Write || !a.Write || !x.IsAtomicAdd(a.Site) {
		return false
	}
	stores, ok := x.storedOnly(b)
	if !ok || len(stores) == 0 {
		return false
	}
	for _, st := range stores {
		if !slices.Contains(b.Superseded, x.site(st.Pos())) {
			return false
		}
	}
	return true
}

// IsAtomicAdd reports whether the access at site is a call of
// sync/atomic's Add (a function AddT or an atomic type's Add method),
// whatever it adds: adds of one variable commute.
func (x *Index) IsAtomicAdd(site string) bool {
	found := false
	for _, in := range x.instrs[site] {
		c, ok := in.(*ssa.Call)
		if !ok {
			continue
		}
		if !strings.HasPrefix(atomicName(c.Common().StaticCallee()), "Add") {
			return false
		}
		found = true
	}
	return found
}

// storedOnly returns the stores of shared memory that the value read by
// e reaches, in its unit, when that is all it reaches: followed through
// conversions, arithmetic, fields and phis, local variables, the
// results of e's activations up to the unit's, and the parameters of
// methods (and plain functions) it is passed to; any other use (a
// comparison or branch, an address, index or key, a map update, a send,
// a call of code without a body here or through an interface, a go or
// defer statement, an interface conversion, the unit's own result) is
// not, and ok is false.
func (x *Index) storedOnly(e Event) (stores []*ssa.Store, ok bool) {
	inner := x.enclosing(e)
	if inner == nil || len(e.Frames) == 0 {
		return nil, false
	}
	w := &storeWalk{x: x, frames: e.Frames, seen: map[walkKey]bool{}, mem: map[ssa.Value]bool{}}
	top := &walkCtx{sc: x.scope(inner), up: len(e.Frames) - 1}
	reads := x.reads(e.Site, top.sc)
	if len(reads) == 0 {
		return nil, false
	}
	for _, v := range reads {
		switch v := v.(type) {
		case *ssa.Call:
		case *ssa.UnOp:
			if v.Op != token.MUL {
				return nil, false
			}
		default:
			return nil, false
		}
		w.push(v, top)
	}
	if !w.run() {
		return nil, false
	}
	return w.stores, true
}

// walkCtx is an activation the walk follows a value in: one of the
// event's own (up, its index in the event's frames) or a method's that
// the value was passed to (call, from caller).
type walkCtx struct {
	sc     *scope
	up     int
	call   ssa.CallInstruction
	caller *walkCtx
	depth  int
}

type walkKey struct {
	v   ssa.Value
	ctx *walkCtx
}

type storeWalk struct {
	x      *Index
	frames []Frame
	seen   map[walkKey]bool
	mem    map[ssa.Value]bool // local variables holding the value
	work   []walkKey
	stores []*ssa.Store
	steps  int
}

func (w *storeWalk) push(v ssa.Value, c *walkCtx) {
	k := walkKey{v, c}
	if v == nil || w.seen[k] {
		return
	}
	w.seen[k] = true
	w.work = append(w.work, k)
}

// run follows the values to a fixed point: false at the first use that
// is not a store (or a bound on the walk's size is reached).
func (w *storeWalk) run() bool {
	for len(w.work) > 0 {
		if w.steps++; w.steps > 10000 {
			return false
		}
		k := w.work[len(w.work)-1]
		w.work = w.work[:len(w.work)-1]
		refs := k.v.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			if !w.refer(k.v, r, k.ctx) {
				return false
			}
		}
	}
	return true
}

func (w *storeWalk) refer(v ssa.Value, r ssa.Instruction, c *walkCtx) bool {
	switch r := r.(type) {
	case *ssa.DebugRef:
		return true
	case *ssa.Store:
		if r.Val != v || r.Addr == v {
			return false
		}
		if a := local(r.Addr); a != nil {
			return w.local(a, c)
		}
		w.stores = append(w.stores, r)
		return true
	case *ssa.Return:
		return w.returned(r, c)
	case *ssa.Call:
		return w.call(v, r, c)
	case *ssa.Convert, *ssa.ChangeType, *ssa.Field, *ssa.Extract, *ssa.Phi:
		w.push(r.(ssa.Value), c)
		return true
	case *ssa.UnOp:
		if r.Op == token.SUB || r.Op == token.XOR {
			w.push(r, c)
			return true
		}
	case *ssa.BinOp:
		switch r.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.SHL, token.SHR, token.AND_NOT:
			w.push(r, c)
			return true
		}
	}
	return false
}

// local follows a local variable that holds the value: its loads carry
// it; stores into it are no use; any other use of its address (passed
// on, sliced) is not followed.
func (w *storeWalk) local(a ssa.Value, c *walkCtx) bool {
	if w.mem[a] {
		return true
	}
	w.mem[a] = true
	refs := a.Referrers()
	if refs == nil {
		return true
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if r.Addr != a {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
			w.push(r, c)
		case *ssa.FieldAddr, *ssa.IndexAddr:
			if !w.local(r.(ssa.Value), c) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// returned carries a returned value to the calls that get it: those of a
// plain function in the scope, the call that passed the value down, or
// the event's enclosing activation's calls in its parent; the unit's own
// result is a use.
func (w *storeWalk) returned(r *ssa.Return, c *walkCtx) bool {
	fn := r.Parent()
	take := func(cs ssa.CallInstruction, to *walkCtx) {
		if v := cs.Value(); v != nil {
			w.push(v, to)
		}
	}
	switch {
	case fn != c.sc.root:
		for _, cs := range w.x.callsIn(c.sc, fn) {
			take(cs, c)
		}
	case c.call != nil:
		take(c.call, c.caller)
	case c.up >= 1:
		parent := w.x.function(w.frames[c.up-1].Site)
		if parent == nil {
			return false
		}
		up := &walkCtx{sc: w.x.scope(parent), up: c.up - 1}
		calls := w.x.ownCalls(up.sc, fn)
		if len(calls) == 0 {
			return false
		}
		for _, cs := range calls {
			take(cs, up)
		}
	default:
		return false
	}
	return true
}

// call follows the value into the parameter it is passed as: of a plain
// function of the scope, or of a method with a body here called on a
// concrete receiver (a new activation, below the walk's).
func (w *storeWalk) call(v ssa.Value, r *ssa.Call, c *walkCtx) bool {
	com := r.Common()
	g := callee(r)
	if g == nil || com.Value == v || com.IsInvoke() || g.Blocks == nil {
		return false
	}
	to := c
	if !c.sc.fns[g] {
		if !w.x.frame[g] || c.depth >= 4 {
			return false
		}
		to = &walkCtx{sc: w.x.scope(g), up: -1, call: r, caller: c, depth: c.depth + 1}
	}
	for i, a := range com.Args {
		if a != v {
			continue
		}
		if i >= len(g.Params) {
			return false
		}
		w.push(g.Params[i], to)
	}
	return true
}
