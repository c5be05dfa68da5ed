package depend

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// heldEntry reports whether a and b, the unit's two writes of one map, are
// an insert of an entry and the delete of that same entry: a stores into
// the map at a key, b deletes from the same map (one struct field or one
// package variable) at the key of the same hash (Event.Key, recorded for
// both), and the map's values are held by value (heldByValue). Such an
// entry is a marker of the unit's, meant to be seen while it lives: the
// unit's writes leave the entry as absent as they found it (when it was
// absent; else b removes it), so made atomic, the pair would tell no
// other goroutine anything, and the state between them is what the insert
// exists to publish, as undone's count of a held slot is (linkdata/
// deadlock's lockOrder: postLock records a lock as held, postUnlock
// deletes it, each under l.mu, and preLock ranges over the held locks in
// between; that state is the lock being held). What separates it from a
// torn update is that b does not complete a: it gives up the entry a made,
// building on none of it; and the entry's value, copied in whole, is all
// a reader gets of it.
//
// A pointer in the value would hand the reader an object the unit may
// still be filling (singleflight's pending call, read without waiting:
// "the pending call read and used without waiting" in depend_test.go),
// so a map whose values hold pointers, maps, channels, functions or
// interfaces is not covered; a slice of such values is not either. A
// delete, then an insert (an entry moved: absent in between), an insert
// then an overwrite, or two keys stay judged. Limits: two keys whose
// 64-bit hashes collide are taken for one; and an entry the unit meant as
// private scratch space in a shared map (a recursion guard) is taken for
// a marker, as undone takes any give-back for a claim.
func (x *Index) heldEntry(a, b Event) bool {
	if a.Key == 0 || a.Key != b.Key {
		return false
	}
	ma, ok := x.insertsInto(a.Site)
	if !ok {
		return false
	}
	mb, ok := x.deletesFrom(b.Site)
	if !ok || mb != ma {
		return false
	}
	m, ok := ma.Type().Underlying().(*types.Map)
	return ok && heldByValue(m.Elem(), nil)
}

// insertsInto returns the map variable (a struct field or a package
// variable) into which every write at site stores one element: m[k] = v.
func (x *Index) insertsInto(site string) (types.Object, bool) {
	var out types.Object
	for _, in := range x.instrs[site] {
		switch in := in.(type) {
		case *ssa.MapUpdate:
			v := mapVar(in.Map)
			if v == nil || out != nil && out != v {
				return nil, false
			}
			out = v
		case *ssa.Store, ssa.CallInstruction:
			// Another write at the site: not only the insert.
			return nil, false
		}
	}
	return out, out != nil
}

// deletesFrom returns the map variable from which every write at site
// deletes one element: delete(m, k).
func (x *Index) deletesFrom(site string) (types.Object, bool) {
	var out types.Object
	for _, in := range x.instrs[site] {
		switch in := in.(type) {
		case ssa.CallInstruction:
			com := in.Common()
			bi, ok := com.Value.(*ssa.Builtin)
			if !ok || bi.Name() != "delete" || len(com.Args) != 2 {
				return nil, false
			}
			v := mapVar(com.Args[0])
			if v == nil || out != nil && out != v {
				return nil, false
			}
			out = v
		case *ssa.Store, *ssa.MapUpdate:
			return nil, false
		}
	}
	return out, out != nil
}

// mapVar is the variable a map value was loaded from: a struct field
// (c.m) or a package variable; nil otherwise.
func mapVar(v ssa.Value) types.Object {
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return nil
	}
	if g, ok := u.X.(*ssa.Global); ok {
		return g.Object()
	}
	if f := field(u.X); f != nil {
		return f
	}
	return nil
}

// heldByValue reports whether a value of type t, copied, leaves its reader
// nothing another goroutine can still write through: no pointers, maps,
// channels, functions or interfaces in it. Strings are allowed (they
// cannot change), and slices and pointers to arrays when their elements
// are: these are the references allowed (lockOrder's stack of caller PCs,
// filled before the insert; go-deadlock's pooled array behind it). Their
// elements are memory of their own, whose accesses are judged as theirs: a
// unit that fills the slice after the insert under the same lock, read by
// the other goroutine in between, is not caught here (a limit: the
// elements' write then read is no atomicity pattern).
func heldByValue(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return true
	}
	if seen == nil {
		seen = map[types.Type]bool{}
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if !heldByValue(u.Field(i).Type(), seen) {
				return false
			}
		}
		return true
	case *types.Array:
		return heldByValue(u.Elem(), seen)
	case *types.Slice:
		return heldByValue(u.Elem(), seen)
	case *types.Pointer:
		// A pointer to an array is a slice of fixed length (go-deadlock's
		// stackGID keeps the pooled array its stack slices, *[N]uintptr):
		// its elements are memory of their own, as a slice's are. A
		// pointer to anything else (a struct: a pending call) is not.
		if a, ok := u.Elem().Underlying().(*types.Array); ok {
			return heldByValue(a.Elem(), seen)
		}
	}
	return false
}

// clearedSlot is heldEntry for a slice's element: a, the unit's write of
// a slice element (an append, or a store through an index), puts a record
// held by value there, and b clears that element back to its type's zero
// value (a store of the zero constant through an index), or removes it
// by moving another element of the same slice into its slot (a
// swap-remove). go-deadlock's lockOrder keeps each lock's holders in a
// slice: postLock appends the goroutine's record (deadlock.go:405),
// postUnlock moves the last record into its slot (:483) and zeroes the
// last (:484), and another goroutine's preLock ranges over the records in
// between (:436): the lock held, the state the record exists to publish.
// As with heldEntry, b builds on nothing a wrote and the reader gets a
// copy of the whole record; a record holding a pointer (a nil stored
// back), a store of any other value, or the clear of a field rather than
// of an element stay judged.
func (x *Index) clearedSlot(a, b Event) bool {
	var t types.Type
	for _, in := range x.instrs[b.Site] {
		switch in := in.(type) {
		case *ssa.Store:
			slot, isIdx := in.Addr.(*ssa.IndexAddr)
			if !isIdx || !zeroOrMoved(in.Val, slot) {
				return false
			}
			if t != nil && !types.Identical(t, in.Val.Type()) {
				return false
			}
			t = in.Val.Type()
		case ssa.CallInstruction, *ssa.MapUpdate:
			return false
		}
	}
	if t == nil || !heldByValue(t, nil) {
		return false
	}
	found := false
	for _, in := range x.instrs[a.Site] {
		switch in := in.(type) {
		case *ssa.Store:
			if _, isIdx := in.Addr.(*ssa.IndexAddr); !isIdx || !types.Identical(in.Val.Type(), t) {
				return false
			}
			found = true
		case ssa.CallInstruction:
			call, isCall := in.(*ssa.Call)
			if !isCall {
				return false
			}
			sl, ok := call.Call.Value.(*ssa.Builtin)
			if !ok || sl.Name() != "append" {
				return false
			}
			s, ok := call.Type().Underlying().(*types.Slice)
			if !ok || !types.Identical(s.Elem(), t) {
				return false
			}
			found = true
		case *ssa.MapUpdate:
			return false
		}
	}
	return found
}

// zeroOrMoved reports whether v, stored into slot, is the zero value of
// its type, or an element of the slice slot indexes, loaded (s[i] =
// s[len(s)-1]).
func zeroOrMoved(v ssa.Value, slot *ssa.IndexAddr) bool {
	if c, ok := v.(*ssa.Const); ok {
		return c.Value == nil
	}
	l, ok := v.(*ssa.UnOp)
	if !ok || l.Op != token.MUL {
		return false
	}
	from, ok := l.X.(*ssa.IndexAddr)
	return ok && (from.X == slot.X || sameMap(from.X, slot.X))
}
