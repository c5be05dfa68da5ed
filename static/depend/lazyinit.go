package depend

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// initUnseen reports whether, of two reads r1 and r2 that another unit
// made between the unit's writes a and b, the one of a's variable cannot
// tell that a happened: a is a lazy initialization (lazyInit) and that
// read's value is only used as a map to read from (nilAlike). Before a
// the variable held nil (the check under the lock said so), and a nil
// map answers a lookup, len and range as the fresh empty map a stored
// does; what the unit put into that map after a is its elements, which
// the trace records as variables of their own (keyed), so a dependence
// on them is another instance's, judged there. The reader's snapshot is
// then the state before a as far as it can see, and no half-old,
// half-new state is shown: gcache's Group.Do makes g.m on first use,
// and another caller looks its own key up in it. A reader that compares
// the variable with nil, keeps or passes it, or inserts through it, sees
// the difference and stays judged; so does an initialization outside a
// lock, or one whose check and store a lock does not hold together
// (that check-then-act is a race of its own). The read may be a getter's
// return of the variable when r2 is the lookup of that getter's result
// (returnedToLookup: afero's MemMapFs.getData).
func (x *Index) initUnseen(evs []Event, a, r1, r2 Event) bool {
	r, next := r1, r2
	switch {
	case r1.Var == a.Var && r2.Var != a.Var:
	case r2.Var == a.Var && r1.Var != a.Var:
		r, next = r2, Event{}
	default:
		return false
	}
	st := x.lazyInit(a)
	return st != nil && x.nilAlike(evs, r, next, st)
}

// lazyInit returns the store at a's site when it is a lazy
// initialization: every store there puts a freshly made empty map (make,
// or a literal with no elements) into a field or global, reached only
// when a nil check of that same variable of the same base, under a
// mutex's Lock held from before the check to the store, found it nil;
// or run by a sync.Once (onceInit); or, under the lock, when a flag of
// the same base, set after the store before the release, was unset
// (flagChecked: lrita/cmap's bucket map, cmap.go:172).
func (x *Index) lazyInit(a Event) *ssa.Store {
	if !a.Write || a.Read {
		return nil
	}
	var out *ssa.Store
	for _, in := range x.instrs[a.Site] {
		st, ok := in.(*ssa.Store)
		if !ok {
			continue
		}
		if !freshEmptyMap(st) || !nilChecked(st) && !x.onceInit(st) && !x.flagChecked(st) {
			return nil
		}
		out = st
	}
	return out
}

// onceInit reports whether st is a sync.Once's initialization of its
// variable: st's function runs only as a Once's function (every reference
// to it, itself or as a bound method value, is the argument of a
// (*sync.Once).Do call; no direct call, nor an interface call of its
// name), and the variable, an unexported field or global, is stored
// nowhere else (no other store, literal or copy of its struct), so it
// held nil before st. cep21/circuit's
// MetricEventStream makes its stream map in doOnce, run by m.once.Do
// from ServeHTTP and Start; Start's listenerCount reads its len.
func (x *Index) onceInit(st *ssa.Store) bool {
	f := st.Parent()
	var holder types.Type // the struct whose field st writes
	switch a := st.Addr.(type) {
	case *ssa.Global:
		if a.Object() == nil || a.Object().Exported() {
			return false
		}
	case *ssa.FieldAddr:
		v := field(a)
		if v == nil || v.Exported() {
			return false
		}
		holder = a.X.Type().Underlying().(*types.Pointer).Elem()
	default:
		return false
	}
	if f.Signature.Recv() != nil && len(x.invokes[f.Name()]) > 0 {
		return false // maybe called through an interface
	}
	uses := 0
	for _, g := range x.all {
		for _, b := range g.Blocks {
			for _, in := range b.Instrs {
				if s, ok := in.(*ssa.Store); ok && s != st && !zeroOrLocal(s.Val) && (sameVar(s.Addr, st.Addr) || holder != nil && types.Identical(s.Val.Type(), holder)) {
					return false
				}
				var refs []*ssa.Value
				for _, op := range in.Operands(refs) {
					if *op == nil || !refersTo(*op, f) {
						continue
					}
					if !onceArg(in, *op) {
						return false
					}
					uses++
				}
			}
		}
	}
	return uses > 0
}

// zeroOrLocal reports whether v, a struct stored whole, holds in the
// field only what the loop's other checks see: a zero constant, or a load
// of a local (a composite literal's temporary), whose field, if set at
// all, was stored through a FieldAddr of the field (sameVar) or by a
// whole store into the local, itself checked.
func zeroOrLocal(v ssa.Value) bool {
	if c, ok := v.(*ssa.Const); ok {
		return c.Value == nil
	}
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return false
	}
	_, ok = u.X.(*ssa.Alloc)
	return ok
}

// refersTo reports whether v is f or the bound method value wrapper of f.
func refersTo(v ssa.Value, f *ssa.Function) bool {
	g, ok := v.(*ssa.Function)
	if !ok {
		return false
	}
	return g == f || f.Object() != nil && g.Object() == f.Object() && strings.HasPrefix(g.Synthetic, "bound method wrapper")
}

// onceArg reports whether in uses fn (f or its bound wrapper) only to hand
// it to (*sync.Once).Do: fn is that call's function argument, or in makes
// the closure of fn and every use of the closure is such an argument.
func onceArg(in ssa.Instruction, fn ssa.Value) bool {
	isDo := func(in ssa.Instruction, v ssa.Value) bool {
		c, ok := in.(*ssa.Call)
		return ok && isSyncMethod(c.Common().StaticCallee(), "Once", "Do") && len(c.Call.Args) == 2 && c.Call.Args[1] == v && c.Call.Args[0] != v
	}
	if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn {
		refs := mc.Referrers()
		if refs == nil || len(*refs) == 0 {
			return false
		}
		for _, use := range *refs {
			if !isDo(use, mc) {
				return false
			}
		}
		return true
	}
	return isDo(in, fn)
}

// freshEmptyMap reports whether st stores a map made right there and
// used for nothing else: no element put into it before it is published.
func freshEmptyMap(st *ssa.Store) bool {
	mm, ok := st.Val.(*ssa.MakeMap)
	if !ok {
		return false
	}
	refs := mm.Referrers()
	return refs != nil && len(*refs) == 1 && (*refs)[0] == st
}

// nilChecked reports whether st is reached only through the true branch
// of a test that its variable, loaded from the same address in the same
// function, is nil, with a Lock held over the load and the store.
func nilChecked(st *ssa.Store) bool {
	for _, blk := range st.Parent().Blocks {
		if len(blk.Instrs) == 0 {
			continue
		}
		iff, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := iff.Cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
			continue
		}
		load := nilCompared(cmp)
		if load == nil || !oneVar(load.X, st.Addr) {
			continue
		}
		then := blk.Succs[0]
		if cmp.Op == token.NEQ {
			then = blk.Succs[1]
		}
		if len(then.Preds) != 1 || !then.Dominates(st.Block()) {
			continue
		}
		if unlocksOn(load, st, true) || !lockedAt(load, st) {
			continue
		}
		return true
	}
	return false
}

// nilCompared is the load compared with nil by cmp, or nil.
func nilCompared(cmp *ssa.BinOp) *ssa.UnOp {
	isNil := func(v ssa.Value) bool {
		c, ok := v.(*ssa.Const)
		return ok && c.IsNil()
	}
	for _, p := range [][2]ssa.Value{{cmp.X, cmp.Y}, {cmp.Y, cmp.X}} {
		if u, ok := p[0].(*ssa.UnOp); ok && u.Op == token.MUL && isNil(p[1]) {
			return u
		}
	}
	return nil
}

// oneVar reports whether two addresses are one variable: one global, or
// one field of one base value (not a base loaded twice, which another
// goroutine may change between: sameAddr's looser sense).
func oneVar(p, q ssa.Value) bool {
	if p == q {
		_, ok := p.(*ssa.Global)
		_, fa := p.(*ssa.FieldAddr)
		return ok || fa
	}
	fp, ok1 := p.(*ssa.FieldAddr)
	fq, ok2 := q.(*ssa.FieldAddr)
	return ok1 && ok2 && fp.X == fq.X && fp.Field == fq.Field
}

// lockedAt reports whether a sync.Mutex or sync.RWMutex Lock call (not
// RLock: two readers could both find nil) comes before load on every
// path, and no Unlock may run from it to st; the mutex is a global, or a
// field of the object whose field st writes (g.mu for g.m): a lock of
// another object, or one passed in, need not be the one every writer of
// the variable takes.
func lockedAt(load ssa.Instruction, st *ssa.Store) bool {
	return heldLockOf(load, root(st.Addr), st)
}

// heldLockOf reports whether a sync.Mutex or sync.RWMutex Lock call of
// a global or of owner comes before at on every path, and no Unlock may
// run from it to to (lockedAt, madeEntry's lockedTo).
func heldLockOf(at ssa.Instruction, owner ssa.Value, to ssa.Instruction) bool {
	for _, blk := range at.Parent().Blocks {
		if !blk.Dominates(at.Block()) {
			continue
		}
		for _, in := range blk.Instrs {
			if in == at {
				break
			}
			call, ok := in.(*ssa.Call)
			if !ok {
				continue
			}
			com := call.Common()
			fn := com.StaticCallee()
			if !isSyncMethod(fn, "Mutex", "Lock") && !isSyncMethod(fn, "RWMutex", "Lock") || len(com.Args) == 0 {
				continue
			}
			mu := root(com.Args[0])
			if _, global := mu.(*ssa.Global); (global || mu == owner) && !unlocksOn(call, to, true) {
				return true
			}
		}
	}
	return false
}

// nilAlike reports whether every load at r's site is of st's variable
// and used only as a map read from (a lookup, len, range), which a nil
// map answers as an empty one does, or only returned to the lookup that
// is next, the unit's next read (returnedToLookup).
func (x *Index) nilAlike(evs []Event, r, next Event, st *ssa.Store) bool {
	n := 0
	for _, in := range x.instrs[r.Site] {
		u, ok := in.(*ssa.UnOp)
		if !ok || u.Op != token.MUL {
			continue
		}
		if !sameVar(u.X, st.Addr) {
			return false
		}
		refs := u.Referrers()
		if refs == nil {
			return false
		}
		for _, use := range *refs {
			if mapRead(use, u) {
				continue
			}
			if ret, ok := use.(*ssa.Return); !ok || !x.returnedToLookup(evs, u, ret, r, next) {
				return false
			}
		}
		n++
	}
	return n > 0
}

// mapRead reports whether use only reads from the map m: a lookup in it,
// its len, a range over it.
func mapRead(use ssa.Instruction, m ssa.Value) bool {
	switch use := use.(type) {
	case *ssa.Lookup:
		return use.X == m
	case *ssa.Range:
		return true
	case *ssa.Call:
		bi, ok := use.Call.Value.(*ssa.Builtin)
		return ok && bi.Name() == "len"
	}
	return false
}

// returnedToLookup reports whether the load u, at r's site, is its
// function's only result (every return returns u and nothing else) and
// what r read reached nothing but the map read at next's site: there, a
// lookup, len or range takes a direct call of u's function as its map,
// the call's only use, in its block with no call between, and the
// replayed schedule shows no other step of r's goroutine at r's site
// from r to next, next being the unit's next event of the pattern. The
// call that next's map read took ran its load after any other call of
// the function, so that load is r: afero's Mkdir looks a name up in
// getData()'s result under the read lock, where getData's once makes the
// map and returns m.data; its other callers insert through the result,
// and are no concern, as the schedule says which call r's value went to.
func (x *Index) returnedToLookup(evs []Event, u *ssa.UnOp, ret *ssa.Return, r, next Event) bool {
	if len(ret.Results) != 1 || ret.Results[0] != u || !next.Read || next.Write || r.Step <= 0 || next.Step <= r.Step {
		return false
	}
	fn := u.Parent()
	for _, b := range fn.Blocks {
		if n := len(b.Instrs); n > 0 {
			if rt, ok := b.Instrs[n-1].(*ssa.Return); ok && (len(rt.Results) != 1 || rt.Results[0] != u) {
				return false
			}
		}
	}
	// The schedule from r to next: After lists it when next ends it.
	for _, e := range evs {
		if e.Thread == r.Thread && e.Unit == r.Unit && e.Step > r.Step && e.Step < next.Step {
			return false
		}
	}
	if slices.Contains(r.After, r.Site) {
		return false
	}
	n := 0
	for _, in := range x.instrs[next.Site] {
		var m ssa.Value
		switch in := in.(type) {
		case *ssa.Lookup:
			m = in.X
		case *ssa.Range:
			m = in.X
		case *ssa.Call:
			if bi, ok := in.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "len" || len(in.Call.Args) != 1 {
				continue
			}
			m = in.Call.Args[0]
		default:
			continue
		}
		c, ok := m.(*ssa.Call)
		if !ok || c.Call.StaticCallee() != fn || !onlyUse(c, in) {
			return false
		}
		n++
	}
	return n > 0
}

// onlyUse reports whether in is c's only use, later in c's block with no
// call between them.
func onlyUse(c *ssa.Call, in ssa.Instruction) bool {
	refs := c.Referrers()
	if refs == nil || len(*refs) != 1 || (*refs)[0] != in || in.Block() != c.Block() {
		return false
	}
	seen := false
	for _, i := range c.Block().Instrs {
		switch {
		case i == in:
			return seen
		case i == ssa.Instruction(c):
			seen = true
		case seen:
			if _, ok := i.(ssa.CallInstruction); ok {
				return false
			}
		}
	}
	return false
}

// sameVar reports whether two addresses are of one global, or of one
// field (of bases the trace tells apart, not the code).
func sameVar(p, q ssa.Value) bool {
	if g, ok := p.(*ssa.Global); ok {
		return g == q
	}
	f := field(p)
	return f != nil && f == field(q)
}

// root is the value an address's fields are taken from: g for &g.mu and
// &g.m, the global for a global's field.
func root(v ssa.Value) ssa.Value {
	for {
		fa, ok := v.(*ssa.FieldAddr)
		if !ok {
			return v
		}
		v = fa.X
	}
}

// flagChecked reports whether st, a store into field f of a struct at
// X, is reached only through the unset branch of a test, under a lock
// of a global or of X held from before the test to st, that X's flag
// field g (a load of it, plain or atomic, or a method of X that returns
// only that load compared with a constant) equals a non-zero constant
// c, and the function sets g to c after st, on every path before an
// Unlock or a return; and, in the whole package, g is stored only c
// (plain or atomic Store, no Swap or CAS) and f only by st, and no
// value of X's struct is stored whole but its zero or a literal's
// (zeroOrLocal). lrita/cmap's initBucket (cmap.go:164-210) takes the
// bucket's lock, returns when b.inited() (b.init == 1), makes b.m
// (cmap.go:172), and sets b.init to 1 before the Unlock.
//
// Before st the variable held nil, as under a nil check: X's struct
// starts zero, f is stored only by st, and every st that ran left g at
// c before it released the lock (and nothing stores g another value),
// so the lock-held test that found g unset found that no st on X had
// run. initUnseen's argument then holds as for a nil-checked store.
func (x *Index) flagChecked(st *ssa.Store) bool {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	fv := field(fa)
	if fv == nil || fv.Exported() {
		return false
	}
	fn := st.Parent()
	for _, blk := range fn.Blocks {
		if len(blk.Instrs) == 0 {
			continue
		}
		iff, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		test, flag, c, set := flagTest(iff.Cond, fa.X)
		if test == nil {
			continue
		}
		unset := blk.Succs[1]
		if !set {
			unset = blk.Succs[0]
		}
		if len(unset.Preds) != 1 || !unset.Dominates(st.Block()) || unlocksOn(test, st, true) || !heldLockOf(test, root(st.Addr), st) {
			continue
		}
		if !setsFlag(st, fa.X, flag, c) || !x.onlyStores(fv, flag, c, fa.X.Type(), st) {
			continue
		}
		return true
	}
	return false
}

// flagTest decides cond as a test of a flag field of x against a
// non-zero constant: the instruction that reads the flag (a load, or
// the call of the method of x that does), the flag field, the constant,
// and whether cond's true branch is the flag set (==) or unset (!=).
func flagTest(cond ssa.Value, x ssa.Value) (ssa.Instruction, *types.Var, *ssa.Const, bool) {
	cmpOf := func(v ssa.Value, base ssa.Value) (ssa.Value, *types.Var, *ssa.Const, bool, bool) {
		cmp, ok := v.(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
			return nil, nil, nil, false, false
		}
		for _, p := range [][2]ssa.Value{{cmp.X, cmp.Y}, {cmp.Y, cmp.X}} {
			c, ok := p[1].(*ssa.Const)
			if !ok || zeroConst(c) {
				continue
			}
			ad, ok := loadAddr(p[0]).(*ssa.FieldAddr)
			if !ok || ad.X != base {
				continue
			}
			if f := field(ad); f != nil {
				return p[0], f, c, cmp.Op == token.EQL, true
			}
		}
		return nil, nil, nil, false, false
	}
	if ld, f, c, eq, ok := cmpOf(cond, x); ok {
		return ld.(ssa.Instruction), f, c, eq
	}
	call, ok := cond.(*ssa.Call)
	if !ok || len(call.Call.Args) != 1 || call.Call.Args[0] != x {
		return nil, nil, nil, false
	}
	g := call.Call.StaticCallee()
	if g == nil || len(g.Blocks) != 1 || len(g.Params) != 1 {
		return nil, nil, nil, false
	}
	ret, ok := g.Blocks[0].Instrs[len(g.Blocks[0].Instrs)-1].(*ssa.Return)
	if !ok || len(ret.Results) != 1 {
		return nil, nil, nil, false
	}
	for _, in := range g.Blocks[0].Instrs {
		switch in := in.(type) {
		case *ssa.FieldAddr, *ssa.BinOp, *ssa.Return, *ssa.DebugRef:
		case *ssa.UnOp:
			if in.Op != token.MUL {
				return nil, nil, nil, false
			}
		case *ssa.Call:
			if !strings.HasPrefix(atomicName(in.Common().StaticCallee()), "Load") {
				return nil, nil, nil, false
			}
		default:
			return nil, nil, nil, false
		}
	}
	if _, f, c, eq, ok := cmpOf(ret.Results[0], g.Params[0]); ok {
		return call, f, c, eq
	}
	return nil, nil, nil, false
}

// setsFlag reports whether every path from st reaches a store of c into
// x's field flag (plain, or an atomic Store) before a call of an Unlock
// or a return.
func setsFlag(st ssa.Instruction, x ssa.Value, flag *types.Var, c *ssa.Const) bool {
	isSet := func(in ssa.Instruction) bool {
		addr, val := storeOf(in)
		fa, ok := addr.(*ssa.FieldAddr)
		return ok && fa.X == x && field(fa) == flag && sameValue(val, c)
	}
	stops := func(in ssa.Instruction) bool {
		if _, ok := in.(*ssa.Return); ok {
			return true
		}
		if _, ok := in.(*ssa.Panic); ok {
			return false
		}
		call, ok := in.(ssa.CallInstruction)
		if !ok {
			return false
		}
		f := call.Common().StaticCallee()
		return f == nil && !isBuiltin(call) || f != nil && (f.Name() == "Unlock" || f.Name() == "RUnlock")
	}
	seen := map[*ssa.BasicBlock]bool{}
	var from func(blk *ssa.BasicBlock, start int) bool
	from = func(blk *ssa.BasicBlock, start int) bool {
		for _, in := range blk.Instrs[start:] {
			if isSet(in) {
				return true
			}
			if stops(in) {
				return false
			}
			if _, ok := in.(*ssa.Panic); ok {
				return true // no release on this path
			}
		}
		for _, s := range blk.Succs {
			if seen[s] {
				continue
			}
			seen[s] = true
			if !from(s, 0) {
				return false
			}
		}
		return len(blk.Succs) > 0
	}
	return from(st.Block(), slices.Index(st.Block().Instrs, st)+1)
}

// onlyStores reports whether, in the package, field f is stored only by
// st, field flag only c (plain or atomic Store; no Swap, CAS or add),
// and no value of the struct x points to is stored whole but a zero or
// a literal's (zeroOrLocal).
func (x *Index) onlyStores(f, flag *types.Var, c *ssa.Const, xt types.Type, st *ssa.Store) bool {
	p, ok := xt.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	holder := p.Elem()
	for _, g := range x.all {
		for _, b := range g.Blocks {
			for _, in := range b.Instrs {
				if s, ok := in.(*ssa.Store); ok && !zeroOrLocal(s.Val) && types.Identical(s.Val.Type(), holder) {
					return false
				}
				if call, ok := in.(ssa.CallInstruction); ok {
					if n := atomicName(call.Common().StaticCallee()); n != "" && !strings.HasPrefix(n, "Load") && !strings.HasPrefix(n, "Store") {
						for _, arg := range call.Common().Args {
							if fa, ok := arg.(*ssa.FieldAddr); ok && field(fa) == flag {
								return false
							}
						}
					}
				}
				addr, val := storeOf(in)
				fa, ok := addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				switch field(fa) {
				case f:
					if in != ssa.Instruction(st) {
						return false
					}
				case flag:
					if !sameValue(val, c) {
						return false
					}
				}
			}
		}
	}
	return true
}

// zeroConst reports whether c is its type's zero value (what a flag
// field holds before any store).
func zeroConst(c *ssa.Const) bool {
	if c.Value == nil {
		return true
	}
	switch c.Value.Kind() {
	case constant.Bool:
		return !constant.BoolVal(c.Value)
	case constant.Int, constant.Float:
		return constant.Sign(c.Value) == 0
	case constant.String:
		return constant.StringVal(c.Value) == ""
	}
	return true
}
