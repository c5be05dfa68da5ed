package depend

import (
	"golang.org/x/tools/go/ssa"
)

// publishedThenUsed reports whether a's unit, between its writes a and b
// that another unit read (r2 the reader's second read), only published a
// new object and then used it as any other caller does:
//   - a stores (into a field, a variable or a map) an object the unit
//     allocated: a new bucket, unreachable by others before a;
//   - b is made in a call entered after a, on that object (the call's
//     receiver or argument is the value a stored, and b's address is
//     reached from that parameter), and is decided by a re-read of b's
//     variable in that call (rereadDecides: take re-reads the token
//     count under the bucket's lock before it decrements);
//   - r2 runs in the same method as b: the reader did to the object what
//     the publisher does next.
//
// The state the reader finds is the object as built, and its own call
// and the publisher's are two calls of one method on the object, whose
// order the object's own lock decides: the reader going first is what
// any other caller of that method may do (go-limiter's Take inserts a
// full bucket under dataLock, unlocks, and takes under bucket.lock;
// another Take finds the bucket and takes first). An object published
// half built and completed by another method (an init after the insert)
// stays judged: the reader's method is then not the publisher's.
func (x *Index) publishedThenUsed(a, b, r2 Event) bool {
	if len(b.Frames) == 0 || len(r2.Frames) == 0 || len(b.Frames) != len(a.Frames)+1 || common(a.Frames, b.Frames) != len(a.Frames) {
		return false
	}
	g := x.function(b.Frames[len(b.Frames)-1].Site)
	if g == nil || g != x.function(r2.Frames[len(r2.Frames)-1].Site) {
		return false
	}
	fresh := x.freshStored(a.Site)
	if len(fresh) == 0 {
		return false
	}
	// The calls of g in a's activation that pass the stored object, and
	// the parameters of g that receive it.
	fn := x.enclosing(a)
	if fn == nil {
		return false
	}
	params := map[ssa.Value]bool{}
	for _, c := range x.callsIn(x.scope(fn), g) {
		for i, arg := range c.Common().Args {
			if fresh[unconvert(arg)] && i < len(g.Params) {
				params[g.Params[i]] = true
			}
		}
	}
	if len(params) == 0 {
		return false
	}
	on := false
	for _, in := range x.instrs[b.Site] {
		if in.Parent() != g {
			continue
		}
		var addr ssa.Value
		switch in := in.(type) {
		case *ssa.Store:
			addr = in.Addr
		case *ssa.Call:
			if isAtomicWrite(in.Common().StaticCallee()) && len(in.Common().Args) > 0 {
				addr = in.Common().Args[0]
			}
		}
		if addr == nil {
			continue
		}
		if !params[root(addr)] {
			return false
		}
		on = true
	}
	return on && x.rereadDecidesAt(a, b, false)
}

// freshStored returns the values the write at site stores that are
// objects its function allocated: an allocation, or the result of a
// call of a constructor whose every return is one (newBucket).
func (x *Index) freshStored(site string) map[ssa.Value]bool {
	out := map[ssa.Value]bool{}
	var vals []ssa.Value
	for _, in := range x.instrs[site] {
		if u, ok := in.(*ssa.MapUpdate); ok {
			vals = append(vals, u.Value)
		}
	}
	vals = append(vals, x.stored(site)...)
	for _, v := range vals {
		v = unconvert(v)
		if allocated(v, 2) {
			out[v] = true
		}
	}
	return out
}

// allocated reports whether v is a heap allocation, or the result of a
// call (depth levels deep) whose every return is one.
func allocated(v ssa.Value, depth int) bool {
	switch v := v.(type) {
	case *ssa.Alloc:
		return v.Heap
	case *ssa.Call:
		fn := v.Call.StaticCallee()
		if fn == nil || fn.Blocks == nil || depth == 0 {
			return false
		}
		return eachReturn(fn, func(r ssa.Value, _ *ssa.Return) bool { return allocated(r, depth-1) })
	}
	return false
}
