// Package symbolic defines an analyzer that turns every function of a
// package into a symbolic event sequence.
//
// A sequence is the static counterpart of the trace that pecanvet records
// at run time. Package candidates matches the anomaly patterns of pattern
// against these sequences to find the code worth running, recording and
// replaying; nothing here is reported to the user.
//
// The analyzer is pure and fast (no I/O, no subprocess): it only needs
// buildssa's SSA form, so gopls, golangci-lint, go vet or any other
// go/analysis driver can run it.
//
// # Events
//
// A function's own sequence (Func.Events) lists, in block order, one Event
// per operation that matters for concurrency:
//
//   - read and write of an abstract location: a field "pkgpath.T.f" (any
//     object of type T; generic types by their origin, without type
//     arguments), a package variable "pkgpath.v", an element of a slice
//     "[]T elem", a whole map "map[K]V" (lookups and range read it;
//     updates and delete write it), a captured local variable
//     "pkgpath.F.x" (named after the declaring function F, with
//     Event.Alloc set: it is fresh for every invocation of F), the target
//     of a pointer loaded from L, "*L", or of a pointer of unknown origin,
//     "*T". An element of an array is the array. `x.f++` and `x.f += y`
//     read, then write. copy reads the source and writes the destination
//     elements. Nothing is recorded for thread-local memory: SSA
//     allocations that do not escape (Alloc.Heap false), slices and maps
//     made in the function (make, append(nil, …)) that never leave it,
//     and the initialization of a fresh composite literal before its
//     first other use;
//   - sync/atomic operations (functions and methods of the atomic types):
//     atomic-load, atomic-store, atomic-rmw (Add, Swap, CompareAndSwap,
//     And, Or) of the location their pointer addresses;
//   - lock, unlock, rlock, runlock of sync.Mutex and sync.RWMutex, also
//     through embedded (promoted) mutexes, TryLock and TryRLock (TryLock
//     set); the lock is named like a location ("pkgpath.T.mu",
//     "pkgpath.T.RWMutex" for an embedded one); a lock reached through a
//     parameter or a local that does not escape gets a '?' name and never
//     excludes anything;
//   - go (a go statement, sync.WaitGroup.Go, and any method named Go whose
//     last argument is a function, e.g. errgroup.Group.Go), with Callee the
//     body; send, recv (also each select case and range over a channel) and
//     close, on "chan T"; wg-add, wg-done, wg-wait; once (Once.Do, followed
//     by a call of its function); cond-wait, cond-signal, cond-broadcast;
//   - call, with Callee the static callee when there is one.
//
// Deferred calls run at return: their events are placed at every RunDefers
// of the function, in reverse order of the defer statements, marked
// Deferred.
//
// # Positions
//
// Event.Pos is always the Pos() of the event's SSA instruction
// (Event.Instr), so that the dynamic side, which names sites the same way,
// sees the same site:
//
//   - a read is the load (*ssa.UnOp MUL) and a write the *ssa.Store; go/ssa
//     gives both the position of the addressed expression: the selector's
//     Sel identifier for x.f (also for promoted fields; never the dot or
//     x), the identifier for a variable, the Lbrack for a[i]. For
//     `x.f++` the read and the write have the same position. When a load
//     has no position (the element load of a range over a slice or array)
//     the address instruction's position is used: the range expression.
//     The FieldAddr/IndexAddr themselves produce no event;
//   - map reads and writes: *ssa.Lookup and *ssa.MapUpdate, the Lbrack of
//     m[k]; range over a map:
//     *ssa.Range, the `for` keyword; delete: the call;
//   - channel operations: *ssa.Send and the receive *ssa.UnOp (the arrow),
//     a select case: its SelectState.Pos (the case's arrow); close: the
//     call;
//   - calls, locks, sync and atomic operations: the *ssa.Call (the Lparen
//     of the call); go statements and deferred operations: the *ssa.Go and
//     *ssa.Defer (the go or defer keyword).
//
// # Locksets
//
// Event.Held is the must-held lockset at the event, from a forward
// dataflow over the function's CFG (meet: intersection, read-held if read
// on either path): Lock/RLock add, Unlock/RUnlock remove, a TryLock adds
// only on the true edge of an `if` testing it, `defer mu.Unlock()` keeps
// the lock held until return, and a call applies its callee's lock effect
// (Func.Acquires, Func.Releases), so lock helpers work. Every held lock
// carries the identity of its acquisition (Held.CS), so that two events in
// one critical section can be told from two events in two critical
// sections of the same lock; Held.Repeat says whether a loop around the
// event stays inside the critical section. Not handled: locks held by the
// caller on entry (the sequence starts empty; Flat adds the caller's locks
// when splicing), locks passed around as sync.Locker, lock identity beyond
// the static path (all objects of type T share "T.mu"), Cond.Wait's
// release and re-acquisition (the lock counts as held throughout), panics
// and recover.
//
// # Summaries
//
// Result.Flat(fn) splices, recursively and memoized, the sequences of the
// functions of the package that fn calls statically (Result.CallGraph;
// closures called directly, methods, instantiations of generic functions
// through their origin, bound-method and other wrappers through their
// object) and the summaries of functions of other packages (below), in
// place of the calls. Recursion is cut (the recursive call stays a call)
// and a sequence stops splicing at MaxFlat events. A spliced event gets the
// caller's lockset at the call added to its own, fresh critical-section
// ids, and, when the callee is a method, a fresh Unit shared by every event
// of that call: the method call is one unit of work (atomic region), as at
// run time. A Once.Do body runs holding the Once as a pseudo-lock
// (Held.Once). Calls through interfaces and function values stay calls.
//
// Result.MayPrecede(a, b) is the program order of a sequence: whether a
// can execute before b in one execution, from CFG reachability at the
// deepest function invocation both belong to (so loops make events repeat).
//
// Across packages the analyzer exports a Summary fact for every exported
// function and exported method of an exported type: its distinct accesses
// and synchronization events (Flat, at most MaxFactEvents, in order of
// first occurrence, each with its lockset and whether it repeats) and its
// lock effect. Callers in other packages splice it: the events keep their
// original site in Event.Ext and take the call's position as Pos. The
// standard library exports no summaries: pecanvet records and replays only
// user code, so accesses inside the standard library could never be
// confirmed, and calls such as fmt.Println would otherwise create
// candidates in every program that prints from goroutines.
//
// # Fast path
//
// Result.HasConcurrency is false when the package has no go statement (nor
// WaitGroup.Go / errgroup-style Go call), no channel operation and does not
// import sync or sync/atomic. pecanvet then does no dynamic work for the
// package; its summaries are still exported for its importers.
package symbolic
