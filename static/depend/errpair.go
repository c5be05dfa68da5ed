package depend

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// tornErrorPair reports whether a reader that returns a value and an
// error together (r2 read the error, its unit returning an error last)
// read them between the writer's two writes, the second, b, storing an
// error that is nil on the writer's path (a successful refresh: the
// store runs only past an `err != nil` return). The reader then returns
// the new value with the error from before: if that was nil, the result
// is the serial one with the writer first (new value, nil error); if it
// was not, the caller takes the error, and by Go's error convention
// ignores the value, as in the serial order with the reader first. No
// caller can tell either from a serial run (bytedance/gopkg's asynccache
// Get returns val.Load() and err.Load(), which a refresh stores between
// with `Store(newVal, nil)`). A writer that stores a value with an
// error, or an error it cannot show nil, stays judged.
func (x *Index) tornErrorPair(b, r2 Event) bool {
	if len(r2.Frames) == 0 || len(b.Frames) == 0 || !b.Write {
		return false
	}
	for _, f := range []Frame{r2.Frames[0], r2.Frames[len(r2.Frames)-1]} {
		fn := x.function(f.Site)
		if fn == nil {
			return false
		}
		res := fn.Signature.Results()
		if res.Len() == 0 || !isError(res.At(res.Len()-1).Type()) {
			return false
		}
	}
	vals := x.stored(b.Site)
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		e := wrappedError(v)
		if e == nil || !x.nilOnPath(e, b.Frames, len(b.Frames)-1) {
			return false
		}
	}
	return true
}

var errorType = types.Universe.Lookup("error").Type()

func isError(t types.Type) bool { return types.Identical(t, errorType) }

// wrappedError is the error value v stores: v itself, or the error field
// of the struct value v is built from (errorHolder{err: err}, so that an
// atomic.Value can hold a nil error). Else nil.
func wrappedError(v ssa.Value) ssa.Value {
	v = unconvert(v)
	if isError(v.Type()) {
		return v
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok || alloc.Referrers() == nil {
		return nil
	}
	var out ssa.Value
	for _, r := range *alloc.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.Referrers() == nil {
			continue
		}
		for _, u := range *fa.Referrers() {
			if st, ok := u.(*ssa.Store); ok && st.Addr == fa && isError(st.Val.Type()) {
				if out != nil && out != st.Val {
					return nil
				}
				out = st.Val
			}
		}
	}
	return out
}

// nilOnPath reports whether the error v, in the function of frames[k],
// is nil there: a nil constant; a parameter whose argument is nil at
// every call of that function in the caller's activation (frames[k-1]);
// or a value tested against nil on a branch that returns, its nil edge
// dominating the block of at (the call leading to the write).
func (x *Index) nilOnPath(v ssa.Value, frames []Frame, k int) bool {
	return x.nilAt(v, nil, frames, k, 4)
}

func (x *Index) nilAt(v ssa.Value, at ssa.Instruction, frames []Frame, k, depth int) bool {
	if depth == 0 {
		return false
	}
	v = unconvert(v)
	if c, ok := v.(*ssa.Const); ok {
		return c.IsNil()
	}
	if p, ok := v.(*ssa.Parameter); ok {
		if k < 1 {
			return false
		}
		fn := p.Parent()
		i := -1
		for n, q := range fn.Params {
			if q == p {
				i = n
			}
		}
		caller := x.function(frames[k-1].Site)
		if caller == nil || i < 0 {
			return false
		}
		calls := x.callsIn(x.scope(caller), fn)
		if len(calls) == 0 {
			return false
		}
		for _, c := range calls {
			args := c.Common().Args
			if i >= len(args) || !x.nilAt(args[i], c, frames, k-1, depth-1) {
				return false
			}
		}
		return true
	}
	return at != nil && nilEdgeDominates(v, at.Block())
}

// nilEdgeDominates reports whether a branch on `v != nil` (or `v ==
// nil`) has its nil edge, entered only from it, dominating blk.
func nilEdgeDominates(v ssa.Value, blk *ssa.BasicBlock) bool {
	if v.Referrers() == nil {
		return false
	}
	for _, r := range *v.Referrers() {
		cmp, ok := r.(*ssa.BinOp)
		if !ok || cmp.Op != token.NEQ && cmp.Op != token.EQL || cmp.Referrers() == nil {
			continue
		}
		other := cmp.Y
		if other == v {
			other = cmp.X
		}
		if c, ok := other.(*ssa.Const); !ok || !c.IsNil() {
			continue
		}
		for _, u := range *cmp.Referrers() {
			f, ok := u.(*ssa.If)
			if !ok || f.Cond != cmp {
				continue
			}
			edge := f.Block().Succs[1] // v == nil when the test is `v != nil`
			if cmp.Op == token.EQL {
				edge = f.Block().Succs[0]
			}
			if len(edge.Preds) == 1 && edge.Dominates(blk) {
				return true
			}
		}
	}
	return false
}

// tornErrorRead is tornErrorPair seen from the reader's unit: its reads
// a (a value) and b (the error that goes with it, returned together)
// have between them the other unit's write of b's variable, storing an
// error nil on its writer's path, and no write of a's variable comes
// after b (a writer that stores the error first and the value after
// would hand the reader an old value with a nil error).
func (x *Index) tornErrorRead(evs []Event, i, j int, between []int) bool {
	a, b := evs[i], evs[j]
	if !a.Read || !b.Read || a.Var == b.Var {
		return false
	}
	for k := j + 1; k < len(evs); k++ {
		if evs[k].Write && evs[k].Var == a.Var {
			return false
		}
	}
	n := 0
	for _, k := range between {
		if e := evs[k]; e.Write && e.Var == b.Var {
			if !x.tornErrorPair(e, b) {
				return false
			}
			n++
		}
	}
	return n > 0
}

// tornErrorGuard is tornErrorRead with the reads the other way round: a
// reads an error (a method returning only it) and b the value, reached
// in the unit only on the branch where that error is nil (asynccache's
// GetOrSet: `if e.err.Load() != nil { return def }; return
// e.val.Load()`); every write of a's variable by the others stores an
// error nil on its writer's path, and none of b's comes after b (the
// writer stores the value, then the error). The unit then sees either
// an old error, and returns without the value, as it would before the
// writer, or a nil one, and then the value the writer stored with a nil
// error, as it would after.
func (x *Index) tornErrorGuard(evs []Event, i, j int) bool {
	a, b := evs[i], evs[j]
	if !a.Read || !b.Read || a.Var == b.Var || len(a.Frames) != len(b.Frames)+1 || common(a.Frames, b.Frames) != len(b.Frames) {
		return false
	}
	g := x.function(a.Frames[len(a.Frames)-1].Site)
	f := x.enclosing(b)
	if g == nil || f == nil {
		return false
	}
	if res := g.Signature.Results(); res.Len() != 1 || !isError(res.At(0).Type()) {
		return false
	}
	calls := x.callsIn(x.scope(f), g)
	guarded := 0
	for _, in := range x.instrs[b.Site] {
		if !x.scope(f).fns[in.Parent()] {
			continue
		}
		ok := false
		for _, c := range calls {
			if v := c.Value(); v != nil && nilEdgeDominates(v, in.Block()) {
				ok = true
			}
		}
		if !ok {
			return false
		}
		guarded++
	}
	if guarded == 0 {
		return false
	}
	other := func(k int) bool { return evs[k].Unit != a.Unit || evs[k].Thread != a.Thread }
	n := 0
	for k := range evs {
		e := evs[k]
		if !other(k) || !e.Write {
			continue
		}
		if e.Var == b.Var && k > j {
			return false
		}
		if e.Var != a.Var {
			continue
		}
		vals := x.stored(e.Site)
		if len(vals) == 0 || len(e.Frames) == 0 {
			return false
		}
		for _, v := range vals {
			w := wrappedError(v)
			if w == nil || !x.nilOnPath(w, e.Frames, len(e.Frames)-1) {
				return false
			}
		}
		n++
	}
	return n > 0
}
