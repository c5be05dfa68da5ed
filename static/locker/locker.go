// Package locker tells which of the user's own types are locks.
//
// A lock is a type whose pointer has Lock() and Unlock() (a sync.Locker)
// that are not sync's. The instrumenter takes them for locks (their calls
// record lock and unlock, their bodies are not instrumented), and the
// generated drivers do not call their methods against each other.
package locker

import "go/types"

// Method reports whether fn is the Lock or Unlock method of a type
// of the user's own that implements sync.Locker (through its pointer): a
// spin lock, a channel semaphore. Such a type is taken as a lock: its
// Lock and Unlock bodies are not instrumented, and calls of them record a
// lock and an unlock of the receiver, as a sync.Mutex's do. Instrumented,
// a spin lock's CompareAndSwap loop became atomic accesses that the
// predictor took for data (ants' pool: atomic-set violations between the
// lock word and the stack it guards) and steps that replay had to match
// spin for spin.
func Method(fn *types.Func) bool {
	if fn == nil || (fn.Name() != "Lock" && fn.Name() != "Unlock") || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "sync", "sync/atomic":
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || sig.Params().Len() != 0 || sig.Results().Len() != 0 {
		return false
	}
	n := named(sig.Recv().Type())
	if n == nil || n.TypeParams().Len() > 0 {
		return false
	}
	if _, isIface := n.Underlying().(*types.Interface); isIface {
		return false
	}
	return lockUnlock(n, fn.Pkg(), false)
}

// Has reports whether t, a named type or a pointer to one, has Lock() and
// Unlock() through its pointer, whoever declares them: an embedded
// sync.Mutex's count too (cilium/statedb's SortableMutex, whose Lock is
// its own and its Unlock the mutex's). Generated drivers call no lock
// operation of such a type (static/driver).
func Has(t types.Type) bool {
	n := named(t)
	return n != nil && lockUnlock(n, nil, true)
}

// lockUnlock reports whether n's pointer has Lock() and Unlock() without
// parameters or results (pkg: the package the names are looked up from);
// package sync's methods count only withSync.
func lockUnlock(n *types.Named, pkg *types.Package, withSync bool) bool {
	ms := types.NewMethodSet(types.NewPointer(n))
	for _, name := range []string{"Lock", "Unlock"} {
		sel := ms.Lookup(pkg, name)
		if sel == nil {
			return false
		}
		m, ok := sel.Obj().(*types.Func)
		if !ok {
			return false
		}
		s := m.Type().(*types.Signature)
		if s.Params().Len() != 0 || s.Results().Len() != 0 {
			return false
		}
		if !withSync && (m.Pkg() == nil || m.Pkg().Path() == "sync") {
			return false
		}
	}
	return true
}

func named(t types.Type) *types.Named {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, _ := t.(*types.Named)
	return n
}
