package depend

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// madeEntry reports whether r, another goroutine's lookup of a map key
// between the unit's insert of the key's entry (a) and its delete of it
// (b), found only what its own get-or-create would have made, and was
// done with it before b. moby/locker's Lock makes the name's entry
// (locker.go:81) when its lookup under l.mu misses (:78), and its Unlock
// deletes it (:106) when the entry's count says no one waits; another
// Lock of the name finds the entry between, counts itself, takes the
// name's lock, takes its count back and unlocks it, all before the
// delete.
//
// Statically: a's every write is the create branch of a get-or-create
// (getOrMake: a comma-ok lookup of a map field or variable under a lock
// held to the insert, whose miss branch does nothing but store a fresh
// zero object of type T at the looked-up key, and whose found value and
// made value merge in one phi before any use, the lookup's ok used only
// by that test), every lookup at r's site is such a get-or-create of the
// same map and T, b deletes from that map, and T is synchronization only
// (syncOnly: sync mutexes, and counters touched only by atomic loads and
// by atomic adds of a constant whose results are dropped). From the
// replay: a, r and b are of one key (Event.Key); no one wrote the map
// from a to r but a (Event.Prior) and no other goroutine from a to b
// (Event.Writes), so r found a's entry and it was there to the delete;
// and the reader wrote the map at no step from r to b, its adds there net
// to zero on each object and it released every lock it took there
// (Event.Settled). r may also be the reader's later lookup of the key
// (moby's Unlock at :99, any lookup of the map that writes nothing)
// when its first lookup of the key since a (Event.Since, the replay's
// keys) was such a get-or-create, Settled then counting from that one:
// it looks again at the entry it got there.
//
// Then the serial order running the reader's use of the entry whole
// before a is equivalent for the map: its get-or-create, finding no entry,
// would have made an equal zero T at the key, and what it did with the
// entry, the same code on the phi, can only count itself on it and lock
// it, all given back before b; the unit's insert and delete are then as
// they were, on the map the reader left as it found it. The counter
// values the reader read (moby's count() in its own Unlock, which kept
// the entry for the unit still counted) are accesses of the counter,
// judged as their own patterns (handedOn). A reader still counted, or
// holding the entry's lock, at b (its Unlock not yet run), a reader that
// wrote the map itself, a create branch that stores anything else or
// prepares the object (locks it, sets a field), a found value used apart
// from the made one, or an entry type with a plain data field or an add
// whose result is used stays judged (TestJudgeMadeEntry, TestSettled).
func (x *Index) madeEntry(a, b, r Event) bool {
	if a.Key == 0 || a.Key != b.Key || a.Key != r.Key || !r.Settled || !(a.Step < r.Step && r.Step < b.Step) {
		return false
	}
	if len(r.Prior) != 1 || r.Prior[0].Step != a.Step || r.Writes == nil {
		return false
	}
	for _, t := range r.Writes {
		if t.Step > a.Step && t.Step < b.Step {
			return false
		}
	}
	m, ok := x.insertsInto(a.Site)
	if !ok {
		return false
	}
	if mb, ok := x.deletesFrom(b.Site); !ok || mb != m {
		return false
	}
	var t types.Type
	for _, in := range x.instrs[a.Site] {
		u, ok := in.(*ssa.MapUpdate)
		if !ok {
			continue
		}
		l := makerLookup(u)
		if l == nil {
			return false
		}
		mu, tu := getOrMake(l)
		if mu != u || t != nil && !types.Identical(t, tu) {
			return false
		}
		t = tu
	}
	if t == nil {
		return false
	}
	// The reader's first lookup of the key since a: r, or an earlier one
	// (Event.Since), which must be the get-or-create; r is then the
	// reader's look at the entry it got there (moby's Unlock, :99).
	first := r.Site
	if r.Since != r.Step {
		first = ""
		for _, l := range r.Looks {
			if l.Step == r.Since && l.Step > a.Step {
				first = l.Site
			}
		}
		if first == "" || !x.looksUp(r.Site, m, nil) {
			return false
		}
	}
	return x.looksUp(first, m, t) && x.syncOnly(t)
}

// looksUp reports whether site's instructions include a lookup of map
// variable m and write nothing; with t, every lookup there is a
// get-or-create of m making a T (getOrMake).
func (x *Index) looksUp(site string, m types.Object, t types.Type) bool {
	n := 0
	for _, in := range x.instrs[site] {
		switch in := in.(type) {
		case *ssa.Lookup:
			if mapVar(in.X) != m {
				return false
			}
			if t != nil {
				u, tl := getOrMake(in)
				if u == nil || !types.Identical(tl, t) {
					return false
				}
			}
			n++
		case *ssa.Store, *ssa.MapUpdate, ssa.CallInstruction:
			return false
		}
	}
	return n > 0
}

// makerLookup returns the comma-ok lookup whose found value the object u
// stores merges with in a phi: the get-or-create's lookup, when u is its
// create branch's insert.
func makerLookup(u *ssa.MapUpdate) *ssa.Lookup {
	al, ok := u.Value.(*ssa.Alloc)
	if !ok {
		return nil
	}
	for _, ref := range *al.Referrers() {
		p, ok := ref.(*ssa.Phi)
		if !ok {
			continue
		}
		for _, e := range p.Edges {
			if ex, ok := e.(*ssa.Extract); ok && ex.Index == 0 {
				if l, ok := ex.Tuple.(*ssa.Lookup); ok {
					return l
				}
			}
		}
	}
	return nil
}

// getOrMake returns the insert of l's get-or-create, and the type T of
// the object it makes, when l, a comma-ok lookup of a map field or
// variable, is the lookup of one: l's ok decides only one test in l's
// block, whose false branch, entered only from it, does nothing but
// allocate a zero T (nothing stored into it) and insert it at l's key into
// l's map, and goes on to the test's true branch, where a phi merges the
// found value (from the test's block) and the made one (from the create
// branch), neither used otherwise. A lock of the map's owner (or of a
// package variable) is taken before l and held to the insert, so the
// create runs only on a miss of the state it extends. Else nil.
func getOrMake(l *ssa.Lookup) (*ssa.MapUpdate, types.Type) {
	m := mapVar(l.X)
	if !l.CommaOk || m == nil || l.Referrers() == nil {
		return nil, nil
	}
	var val, ok *ssa.Extract
	for _, ref := range *l.Referrers() {
		e, isExt := ref.(*ssa.Extract)
		switch {
		case !isExt:
			return nil, nil
		case e.Index == 0 && val == nil:
			val = e
		case e.Index == 1 && ok == nil:
			ok = e
		default:
			return nil, nil
		}
	}
	if val == nil || ok == nil {
		return nil, nil
	}
	var iff *ssa.If
	for _, ref := range *ok.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.If:
			if iff != nil || ref.Block() != l.Block() {
				return nil, nil
			}
			iff = ref
		default:
			return nil, nil
		}
	}
	if iff == nil {
		return nil, nil
	}
	found, create := iff.Block().Succs[0], iff.Block().Succs[1]
	if found == create || len(create.Preds) != 1 || len(create.Succs) != 1 || create.Succs[0] != found {
		return nil, nil
	}
	var al *ssa.Alloc
	var u *ssa.MapUpdate
	for _, in := range create.Instrs {
		switch in := in.(type) {
		case *ssa.Alloc:
			if al != nil || !in.Heap {
				return nil, nil
			}
			al = in
		case *ssa.MapUpdate:
			if u != nil || mapVar(in.Map) != m || in.Key != l.Index {
				return nil, nil
			}
			u = in
		case *ssa.FieldAddr, *ssa.DebugRef, *ssa.Jump:
		case *ssa.UnOp:
			if in.Op != token.MUL {
				return nil, nil
			}
		default:
			return nil, nil
		}
	}
	if al == nil || u == nil || u.Value != ssa.Value(al) {
		return nil, nil
	}
	t := al.Type().Underlying().(*types.Pointer).Elem()
	if _, isStruct := t.Underlying().(*types.Struct); !isStruct {
		return nil, nil
	}
	if mt, isMap := l.X.Type().Underlying().(*types.Map); !isMap || !types.Identical(mt.Elem(), al.Type()) {
		return nil, nil
	}
	// One phi in the found block merges the two, and is their only use.
	var phi *ssa.Phi
	for _, v := range []ssa.Value{val, al} {
		for _, ref := range *v.Referrers() {
			switch ref := ref.(type) {
			case *ssa.DebugRef:
			case *ssa.MapUpdate:
				if ref != u || v != ssa.Value(al) {
					return nil, nil
				}
			case *ssa.Phi:
				if phi != nil && ref != phi || ref.Block() != found {
					return nil, nil
				}
				phi = ref
			default:
				return nil, nil
			}
		}
	}
	if phi == nil || len(found.Preds) != 2 {
		return nil, nil
	}
	for k, p := range found.Preds {
		want := ssa.Value(val)
		if p == create {
			want = al
		} else if p != iff.Block() {
			return nil, nil
		}
		if phi.Edges[k] != want {
			return nil, nil
		}
	}
	if !lockedTo(l, u) {
		return nil, nil
	}
	return u, t
}

// lockedTo reports whether a sync.Mutex or sync.RWMutex Lock of the
// lookup's map owner (the object whose field the map is) or of a package
// variable comes before l on every path, and no Unlock may run from it
// to u.
func lockedTo(l *ssa.Lookup, u *ssa.MapUpdate) bool {
	ld, ok := l.X.(*ssa.UnOp)
	return ok && heldLockOf(l, root(ld.X), u)
}

// syncOnly reports whether the struct type t holds nothing but
// synchronization: its fields are sync.Mutex or sync.RWMutex values,
// taken only by those types' methods, or signed integer counters written
// only by atomic adds of a non-zero constant whose results are dropped,
// and read only by loads (atomic or plain: a count, whose values are
// judged as its own accesses); no value of t is loaded or stored whole. Every
// function of the index is searched, so t must be declared in an
// indexed package with no exported field that another package could
// touch. A T of such a type, used by anyone, holds no data: only who
// holds its locks and how many counted themselves on it.
func (x *Index) syncOnly(t types.Type) bool {
	nt, ok := t.(*types.Named)
	if !ok {
		return false
	}
	st, ok := nt.Underlying().(*types.Struct)
	if !ok || st.NumFields() == 0 {
		return false
	}
	counter := map[int]bool{}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Exported() && nt.Obj().Exported() {
			return false
		}
		if isSyncType(f.Type(), "Mutex") || isSyncType(f.Type(), "RWMutex") {
			continue
		}
		b, ok := f.Type().(*types.Basic)
		if !ok || b.Info()&types.IsInteger == 0 || b.Info()&types.IsUnsigned != 0 {
			return false
		}
		counter[i] = true
	}
	declared := false
	for _, fn := range x.all {
		if fn.Pkg != nil && fn.Pkg.Pkg == nt.Obj().Pkg() {
			declared = true
		}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				switch in := in.(type) {
				case *ssa.FieldAddr:
					p, ok := in.X.Type().Underlying().(*types.Pointer)
					if !ok || !types.Identical(p.Elem(), t) {
						continue
					}
					for _, ref := range *in.Referrers() {
						if _, ok := ref.(*ssa.DebugRef); ok {
							continue
						}
						if ld, ok := ref.(*ssa.UnOp); ok && ld.Op == token.MUL && counter[in.Field] {
							continue // a plain read of the count (moby's tests read l.waiters)
						}
						call, ok := ref.(*ssa.Call)
						if !ok || len(call.Call.Args) == 0 || call.Call.Args[0] != ssa.Value(in) {
							return false
						}
						if counter[in.Field] && !counted(call) || !counter[in.Field] && !lockCall(call) {
							return false
						}
					}
				case *ssa.Field:
					if types.Identical(in.X.Type(), t) {
						return false
					}
				case *ssa.UnOp:
					if in.Op == token.MUL && types.Identical(in.Type(), t) {
						return false
					}
				case *ssa.Store:
					if types.Identical(in.Val.Type(), t) {
						return false
					}
				}
			}
		}
	}
	return declared
}

// counted reports whether call is an atomic load of its first argument,
// or an atomic add of a non-zero signed constant to it whose result is
// dropped.
func counted(call *ssa.Call) bool {
	name := atomicName(call.Call.StaticCallee())
	if len(name) >= 4 && name[:4] == "Load" {
		return true
	}
	if len(name) < 3 || name[:3] != "Add" || len(call.Call.Args) != 2 {
		return false
	}
	k, ok := call.Call.Args[1].(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int || constant.Sign(k.Value) == 0 {
		return false
	}
	if b, ok := k.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsUnsigned != 0 {
		return false
	}
	refs := call.Referrers()
	return refs == nil || len(*refs) == 0
}

// lockCall reports whether call is a sync.Mutex or sync.RWMutex method
// taking or releasing the lock.
func lockCall(call *ssa.Call) bool {
	fn := call.Call.StaticCallee()
	for _, typ := range []string{"Mutex", "RWMutex"} {
		for _, name := range []string{"Lock", "Unlock", "RLock", "RUnlock", "TryLock", "TryRLock"} {
			if isSyncMethod(fn, typ, name) {
				return true
			}
		}
	}
	return false
}

// isSyncType reports whether t is sync's type named name.
func isSyncType(t types.Type, name string) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Name() == name && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync"
}
