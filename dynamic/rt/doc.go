// Package rt is the recorder runtime that instrumented Go code calls. It is
// compiled into the user's test binary: pecanvet embeds this package's
// source (and dynamic/trace, which it imports) and adds both to the user's
// build through `go test -overlay`, under a directory of the user's module
// named pecanvetrt_<hash>, rewriting the one import path. So this package
// imports nothing but the standard library and dynamic/trace, uses no cgo,
// and keeps a pure-Go fallback for its one assembly stub (build tag purego,
// or any architecture but amd64 and arm64). The files to embed are the
// non-test .go and .s files of this directory; gen_atomic.go (build tag
// ignore, so inert in the build) generates atomic_gen.go and
// atomic_andor_gen.go.
//
// # Contract with the instrumenter (dynamic/instrument)
//
// Sites. Every instrumented operation passes a site id (int32). Each
// instrumented file registers its sites in a package-level variable
// initializer, before any of its code runs:
//
//	var first = rt.RegisterNext([]rt.Site{{Pos: "dir/file.go:12:5", Obj: "Counter.n"}, ...})
//
// and passes first+k for its k-th site. Site ids are global across the
// whole instrumented build: RegisterNext hands out consecutive ranges in
// package initialization order, the same in every run of one binary (so a
// rewritten file does not depend on the other packages instrumented with
// it). Pos is the module-relative slash path with line and column of the
// SSA instruction / AST node; Obj is a static description of the object the
// operation touches (a field "Counter.n", a package variable "pkg.v",
// "[]int elem", "map[string]int", a lock "Counter.mu", a channel
// "chan int", a unit "Counter.Inc"). An unregistered site id is allowed
// (the event has no site and its object is described as "obj").
//
// Objects. The runtime names an object in the trace by its Obj plus "#k",
// k counting the distinct addresses first seen with that description
// (stable across runs when allocation order is): "Counter.n#1". Obj is
// made a valid trace name first: spaces, control characters, '#', '@' and
// '=' become '_' ("[]int elem" → "[]int_elem#1"). An address keeps the
// name it was first seen with; memory (plain and atomic accesses), locks,
// channels, WaitGroups, Onces and Conds are separate classes, so a struct
// and a mutex that is its first field are different objects. Units of work
// are named by their Obj alone ("Counter.Inc"). A Pos that is not a valid
// trace site ("file:line" or "file:line:col") is dropped.
//
// Stack memory. An address on the calling goroutine's own stack is not
// recorded (by any wrapper): escape analysis puts every variable that
// another goroutine can reach on the heap, so such an access can take part
// in no anomaly, and stacks move when they grow, so their addresses would
// not identify variables. (On platforms without the assembly stub this
// check is off and stack addresses are recorded like any other.)
//
// Memory (called just before the access; addr is the address of the
// variable, field or element; for maps the map header pointer):
//
//	rt.R(addr unsafe.Pointer, site int32)
//	rt.W(addr unsafe.Pointer, site int32)
//
// sync (the runtime performs the operation itself, so that replay can
// gate it; acquisitions are recorded after they succeed, releases before):
//
//	rt.Lock(l sync.Locker, site)          // Mutex.Lock, RWMutex.Lock (an RWMutex.RLocker() records rlock)
//	rt.Unlock(l sync.Locker, site)        // Mutex.Unlock, RWMutex.Unlock
//	rt.RLock(rw *sync.RWMutex, site); rt.RUnlock(rw *sync.RWMutex, site)
//	rt.TryLock(m interface{ TryLock() bool }, site) bool
//	rt.TryRLock(rw *sync.RWMutex, site) bool
//	rt.WGAdd(wg *sync.WaitGroup, delta int, site); rt.WGDone(wg, site); rt.WGWait(wg, site)
//	rt.WGGo(wg *sync.WaitGroup, f func(), site)   // Go 1.25 WaitGroup.Go
//	rt.OnceDo(o *sync.Once, f func(), site)
//	rt.CondWait(c *sync.Cond, site); rt.CondSignal(c, site); rt.CondBroadcast(c, site)
//
// wg-add and wg-done are recorded before the call, wg-wait after Wait
// returns. As in the race detector's model of a WaitGroup, an Add that
// raises the counter from 0 is also recorded as a read of the WaitGroup's
// memory (after the wg-add), and the first Wait that blocks as a write of
// it (before the wg-wait): an Add that does not happen before a blocking
// Wait races with it. Replay passes such a step when the execution does
// not produce it (gateOmit). WGGo needs no Go 1.25 toolchain: it records wg-add 1 and a fork,
// and the new goroutine records begin, …, wg-done, end and then calls
// Done. OnceDo records the call that ran f from inside Do (after f returns
// or panics), the others after Do returns, so the first once event of an
// object is the call that ran f; each call also records a lock of o
// (gated before Do is entered: the running call's recorded inside Do
// before f, the others' when Do returns) and an unlock after its once
// event, so that a Once is a lock held while f runs (issue 29). CondWait records an unlock of c.L before
// waiting and, when Wait returns, cond-wait and then a lock of c.L
// (rlock/runlock if c.L is an RLocker); signal and broadcast are recorded
// before the call.
//
// sync/atomic: one wrapper per function and per method of the atomic
// types, same signature plus a trailing site, e.g.
//
//	rt.AddInt32(addr *int32, delta int32, site int32) int32
//	rt.Int64Load(v *atomic.Int64, site int32) int64   // v.Load()
//
// Functions keep their sync/atomic names (AddInt32, LoadPointer,
// CompareAndSwapUintptr, …); methods are named type+method (Int64Load,
// BoolStore, UintptrCompareAndSwap, ValueSwap, PointerLoad[T] for
// atomic.Pointer[T], …). The And/Or functions and methods (Go 1.23) are
// built only with a Go 1.23 or later toolchain. The operation is performed
// and recorded under the recorder's lock, so the trace order of atomic
// operations is their real order: loads are atomic-load, stores
// atomic-store, Add/Swap/And/Or and a CompareAndSwap that swapped
// atomic-rmw, a CompareAndSwap that did not atomic-load.
//
// Goroutines: `go f(a, b)` becomes (arguments and the function value
// evaluated in the parent, as Go does; one fresh variable per go
// statement):
//
//	{ f0, a0, b0 := f, a, b; id := rt.Go(site); go func() { rt.Begin(id); defer rt.End(); f0(a0, b0) }() }
//
// rt.Go returns a *rt.Goroutine (nil when not recording), records fork in
// the parent and names the child after the parent and the parent's spawn
// count ("g1.2": the second goroutine g1 started), so that it has the same
// name in every run. Goroutines the runtime first sees without Begin
// (goroutines of uninstrumented code, the main goroutine) are roots "g1",
// "g2", … in order of their first event; those that instrumented code
// started before the recording began (package initialization, TestMain:
// Go returned nil) are "p1", "p2", … (preIDs, trace.PreRoot). A replay
// lets one of those, or a root after g1, go when it would wait for it in
// vain and it has no part in the anomaly.
//
// Goroutines that the standard library starts with a happens-before edge
// from the code that asked for them are forked by that code (testgo.go,
// sleep.go, ctxafter.go):
//
//	defer rt.TestStart(t)()          // first in every TestXxx: its trace starts (teststart.go)
//	rt.TestFork(t, site)             // next: the test goroutine is the main goroutine's child
//	                                 // (both, and TestEnd, are one call: defer rt.Test(t, fork, end)())
//	rt.RunAt(t, site)(name, f)       // t.Run(name, f) on a *testing.T
//	rt.AfterFuncAt(site)(d, f)       // time.AfterFunc(d, f)
//	rt.CtxAfterFuncAt(site)(ctx, f)  // context.AfterFunc(ctx, f)
//
// TestFork records a fork of the test goroutine by the main goroutine
// (which ran package initialization and TestMain before m.Run), RunAt a
// fork of the subtest's goroutine by the caller of t.Run, both when the
// test's function starts; a cleanup records the goroutine's end and the
// caller's join ("g1.1" is the first test, "g1.1.1" its first subtest or
// goroutine). The AfterFunc wrappers fork the callback's goroutine at the
// call.
//
// Channels (the runtime performs the operation; the events carry the
// channel's capacity):
//
//	rt.Send[T any](ch chan<- T, v T, site)
//	rt.Recv[T any](ch <-chan T, site) T
//	rt.Recv2[T any](ch <-chan T, site) (T, bool)
//	rt.Close[T any](ch chan<- T, site)
//	rt.Sent[T any](ch chan<- T, site)               // first statement of a select send case that fired
//	rt.Received[T any](ch <-chan T, ok bool, site)  // first statement of a select receive case / range-over-channel body
//
// T is inferred from a bidirectional channel too; when v's type differs
// from the element type (an interface element), pass T explicitly:
// rt.Send[E](ch, v, site). Send, Recv and Recv2 are recorded when the
// operation completed, close before closing; a receive that got ok ==
// false is recorded as having seen the close. Both sides of a
// communication record after the fact, so their records race; the
// recorder's reorder buffer (holdback.go) writes them in an order that the
// engine's happens-before rules accept. On an unbuffered channel every
// send and receive also takes a ticket (a blocked one before it blocks,
// a select's case and a range loop's receive before they run: SelectGate
// with the cases' channels, RangeGate), so that the k-th send written is
// the one the k-th receive written got, not the one that woke up first.
//
// Units of work (method calls on a receiver):
//
//	rt.RegionBegin(site); defer rt.RegionEnd(site)
//
// Process exit: os.Exit(c) in instrumented code becomes rt.Exit(c), which
// marks the trace truncated ("os.Exit(3)") unless c == 0, finishes it and
// exits.
//
// Ending the trace (for the generated TestMain and the replay driver; Close
// is the channel wrapper):
//
//	rt.Finish()              // after m.Run returns: end marker, file trimmed
//	rt.Truncate(reason)      // an abnormal end the caller detected
//
//	rt.Drain()               // deferred first in every test function: see drain.go
//
// Finish and Truncate write what the reorder buffer still holds (waiting up to 100 ms for
// goroutines that are about to record the other side of a communication);
// events recorded afterwards are dropped. A process that ends without
// either (a panic, a signal, returning from main) leaves a trace without
// end marker, which lenient reading accepts as truncated.
//
// # Trace output
//
// The trace file is named by the environment variable PECANVET_TRACE,
// read once at package initialization (no variable: recording is off and
// every call only performs its operation after one atomic load). It is
// written in trace's binary format into a memory-mapped file (Linux,
// macOS), so that every complete event survives a panic, os.Exit or
// SIGKILL of the process; a lenient read recovers it and marks it
// truncated. Elsewhere the file is written through a buffer flushed when
// the trace is finished.
//
// With PECANVET_PERTURB set to a seed, a recording is perturbed: the
// goroutines are delayed at their operations by seeded, PCT-like decisions
// (perturb.go), so that a re-recording can show what one ordinary run hid.
//
// # Replay
//
// Every wrapper calls gate(addr, site, op) before its operation. It does nothing
// while recording; the deterministic scheduler of replay will wait there
// for the goroutine's turn, which is why the runtime performs the blocking
// operations itself.
package rt
