// Package instrument rewrites a package and its tests so that every
// operation that matters for concurrency calls the recorder runtime.
//
// The rewritten files are built through `go test -overlay`, never
// touching the user's files, and their tests, run, record a concrete trace
// through the runtime (dynamic/rt).
//
// # Using it
//
//	res, err := instrument.Instrument(ctx, instrument.Options{Dir: dir, Patterns: []string{"./..."}})
//	defer res.Cleanup()
//	// PECANVET_TRACE=trace.bin go test -overlay=res.Overlay -vet=off -count=1 <import paths>
//
// Instrument loads the packages with go/packages (with their tests:
// static/load), or takes them loaded (Options.Packages), and type-checks
// them; a package that does not type-check is a *LoadError
// carrying the go command's and the type checker's messages
// ("file:line:col: msg"), and nothing is written. Only packages of the main
// module that the patterns match are instrumented. go/packages returns
// several variants of a package with tests (p, "p [p.test]",
// "p_test [p.test]"): each file is rewritten once, with the types of the
// variant that holds the most (p's own files and its in-package _test.go
// files come from "p [p.test]"). Build with the same build flags as the
// load (Options.BuildFlags), -vet=off (vet would analyze the rewritten
// code) and -count=1 (a cached test result writes no trace). The trace
// file, named by PECANVET_TRACE, has one writer: run one test binary per
// file (one package per go test, or go test -c and run the binaries).
//
// Everything lives in Result.Dir, a temporary directory: the rewritten
// files and overlay.json. The runtime is a module of its own in pecanvet's
// cache, content-addressed so that the go command compiles it once, not
// once per package (Result.RuntimeDir, module pecanvet.invalid/rt_<hash>, holding the
// embedded source of dynamic/rt and dynamic/trace with rt's import of
// trace rewritten), which the overlay's copy of the user's go.mod requires
// and replaces. It cannot be a package added by the overlay inside the
// user's module: the runtime has assembly files, and the go command runs
// the assembler in the package's directory, which an overlay cannot
// create. In vendor mode, where the go command takes modules only from
// vendor/ (and reads vendor/modules.txt past the overlay), the runtime's
// packages are overlaid into the main module instead: rt into the existing
// vendor directory (import path <module>/vendor), trace into a directory
// only the overlay has. The user's go line stays; for a module older than
// go 1.21 the rewritten files and the runtime get a go1.21 build tag, which
// sets their language version without changing what the code means (see
// modules.go). A test package without a TestMain gets a generated one,
// zz_pecanvet_main_test.go, that calls rt.Finish after m.Run; os.Exit in
// instrumented code becomes rt.Exit, which ends the trace too, and
// time.Sleep, time.Now, the timers and tickers (and their Stop and Reset)
// become rt's, which replay runs on a virtual clock (rt's vclock.go). The Go code
// of cgo files is instrumented (with the types go/packages computed for the
// file cgo generated from it, matched by original position; references to
// C are left alone), their C code is not, and Result.Notes says so;
// generated files are instrumented like any other.
//
// # What is instrumented
//
// Memory, with rt.R and rt.W just before the access: package-level
// variables (also of other packages), struct fields (through pointers and
// values, promoted fields), array and slice elements, whatever a pointer
// points to, maps (rt.R/W on the map as one location: index, comma-ok,
// assignment, delete, clear, range; an access of one element, m[k],
// m[k] = v, m[k] op= v, delete(m, k), is rt.RK/WK, which also records a
// hash of the key, when the key can be evaluated again for it: a
// constant, or a local no other goroutine reaches, or the temporary an
// assignment holds it in; see types.go keyAgain and rt/mapkey.go), and
// local variables that SSA puts on the heap (go/ssa's Alloc.Heap:
// captured by a closure, or address taken).
// Locals that never escape get no calls — that, and the runtime ignoring
// addresses on the caller's own stack, is what keeps the overhead low.
// Values of sync and sync/atomic types are not memory: their methods are
// operations below. x++ and x op= y are a read then a write of x, the
// value read into a temporary between them (so that a replay that puts
// another goroutine's write between the two loses it, as a run would); in a
// tuple assignment the right-hand sides are evaluated first, then the
// left-hand sides' addresses, then each write is recorded just before it
// happens; short-circuit operands are instrumented in place, so only when
// they are evaluated; deferred calls' arguments at defer time; a method
// value's receiver when the value is taken. Selecting a method (a call or
// a method value) reads what -race sees it read: each embedded pointer
// field a promoted method goes through, and, for a method with a value
// receiver, the whole receiver it copies (*p for a pointer p, x.Base for a
// method promoted from an embedded Base).
//
// Accesses no expression shows (lang.go, rangevars.go, results.go,
// builtins.go): a range loop over a slice (or an array pointer) reads each
// element into its value variable, recorded just before through an
// iterator (range over functions, Go 1.23 files and later); before Go 1.22
// (the file's version: types.Info.FileVersions, which honours a
// //go:build go1.xx line, or the module's go directive) a range loop's
// iteration variables are one pair for the whole loop, so when a closure
// captures one, each iteration's assignment is a recorded write (the loop
// assigns to variables declared before it); named results on the heap are
// written by a return with values (recorded before it) and read by every
// return after the deferred calls (a deferred read registered first, so it
// runs last); copy reads the source's and writes the destination's
// elements, append writes the elements past the length when they fit, or
// reads the old ones it copies when it grows, and reads a spread slice's
// (at most 256 elements per call), and x = append(x, v...) still reads v's
// (see markSelfAppend); elements of struct or array type are recorded part
// by part (rt.RRangeV, at most 256 parts per call), so that copying a
// slice of structs conflicts with a write of one element's field;
// string(b) of a []byte or []rune reads its elements, and append(b, s...)
// of a string s writes b's or reads them as append does; len of a map
// reads the map, and a range loop over a map reads it at its start and at
// each iteration (chan.go); a struct or
// array read or written as a whole value reads or writes each of its
// scalar parts (rt.RV, rt.WV), so that a copy conflicts with a field's
// access. len and cap of channels are neither races nor synchronization
// in Go's memory model and are not recorded.
//
// Accesses made by code that is not instrumented, recorded at the call
// (reflect.go, iocall.go): the reflect.Value methods that read or write
// the variable an addressable Value refers to (Int, Interface, ... and Set,
// SetInt, ...; the write only when evaluating the arguments cannot
// synchronize, since it is recorded before them) and reflect.Copy; Read
// and ReadAt of a standard-library type or through an interface write
// p[:n], and Write reads p[:n] (recorded as a read of p[0]), recorded when
// the call returns (after whatever synchronization the call made before
// touching p).
//
// Operations, performed by the runtime so that replay can gate them:
// sync.Mutex and RWMutex Lock/Unlock/RLock/RUnlock/TryLock/TryRLock (also
// promoted from embedded mutexes, through sync.Locker, as method
// expressions, and as method values, which become closures over the
// receiver; a mutex variable or field that the package also reads or
// writes as a whole value, mu = sync.Mutex{}, is locked through
// rt.LockWord and its kin, which also record the atomic update of its word
// that the race detector sees race with that access), WaitGroup
// Add/Done/Wait/Go, Once.Do, Cond Wait/Signal/
// Broadcast; sync.OnceFunc, OnceValue and OnceValues (the function they
// make runs its argument through a recorded Once.Do, so that the body
// happens before every return); sync.Map Load, Store, Delete, LoadOrStore,
// LoadAndDelete, Swap, CompareAndSwap, CompareAndDelete and Range, as
// atomic accesses of the (map, key) pair (rt/syncmap.go; Clear and method
// values of sync.Map are not wrapped); every sync/atomic function and
// method of the atomic types the runtime wraps; channel send (one that
// panics on a closed channel is recorded too, marked ok=false: it races
// with the close), receive (also comma-ok), close; select (the
// channel operands and sent values are evaluated before the select, in
// source order as Go does, then rt.SelectGate, where a replay holds the
// select until its case's turn; the case that fired records rt.Sent or
// rt.Received, default calls rt.SelectDefault and records nothing; a send
// case that panics on a closed channel is recorded, marked closed, when
// the panic is recovered: recover() becomes rt.Recovered(recover()));
// range over a channel (each
// iteration records rt.Received, and the loop end the receive that saw the
// channel closed, unless a break left the loop); go statements (the
// function and arguments are evaluated in the parent, rt.Go records the
// fork, and the new goroutine calls rt.Begin and defers rt.End);
// runtime.AddCleanup (rt.AddCleanup forks each cleanup at the call and runs
// it on a goroutine of its own, as the race detector sees it); and units
// of work: every method with a receiver starts with
// rt.RegionBegin(site); defer rt.RegionEnd(site). An operation is only
// rewritten when the embedded runtime has its wrapper.
//
// # Sites
//
// Every instrumented operation passes a site id. Each rewritten file
// registers its sites in a package-level variable initializer,
// pecanvetS__N = rt.Sites(quiet, table) (N the file's number in its
// package; the sites as one string, cheaper to compile than a composite
// literal, see siteTable), which returns the id the runtime gave the
// file's first site (rt.RegisterNext), and passes ids as pecanvetS__N+k:
// referring to that variable makes every instrumented function depend on
// the registration in Go's initialization order. The runtime, not the
// instrumenter, numbers the sites, so a package's rewritten files are the
// same whichever packages a build instruments besides, and the go
// command's build cache compiles a module's package once for the checks of
// every root that imports it. The helpers instrumented expressions call
// (rt.XR(&x, site) and its kin) are rt's, compiled once, not emitted per
// file. Site.Pos is the module-relative
// slash path, line and byte column (1-based) of the position go/ssa gives
// the corresponding instruction, so that the static analysis and the trace
// speak of the same sites:
//
//	variable x (load or store)        the identifier (ssa UnOp / Store of a Global or Alloc)
//	field x.f                         the field name f (FieldAddr, and its UnOp / Store)
//	element a[i], map m[k]            the '[' (IndexAddr, Lookup, MapUpdate)
//	pointee *p                        the '*' (UnOp / Store)
//	call: sync, atomic, close, delete the '(' (Call, Defer and Go's CallCommon)
//	method value of a sync method     the method name (MakeClosure)
//	send ch <- v                      the '<-' (Send)
//	receive <-ch                      the '<-' (UnOp ARROW)
//	select case                       the case's '<-' (SelectState.Pos)
//	range over a channel or map       the 'for' (UnOp ARROW, Range)
//	go statement                      the 'go' (Go)
//	unit of work (method)             the method name (Function.Pos)
//
// (TestSitesAreSSAPositions checks this on the test corpus.) Site.Obj
// describes the object statically: "pkg.v" for a package variable, "F.v"
// or "T.M.v" for a local, "T.f" for a field (T the struct type that declares
// it), "[]int elem" for an element, the map's type for a map, "*" plus the
// pointer's description for a pointee, the mutex's location for a lock
// ("Counter.mu"), the channel's type for a channel ("chan int"), "T.M" for a
// unit of work.
//
// # Positions
//
// The rewritten file keeps every line of the original on its line:
// instrumentation calls are inserted on the line of the code they
// instrument, and nothing generated contains a newline (the site table is
// appended after the last line). Where a rewrite moves
// original text (the right-hand side of an assignment evaluated into a
// temporary, hoisted select operands, the arguments of a go statement), the
// moved text is preceded by a /*line file:line:col*/ directive naming its
// original position. So compiler messages, panics, runtime.Caller and test
// failure messages report the user's file and line; the corpus test
// compares them with an uninstrumented run.
//
// Every rewritten package is type-checked before it is written; a statement
// whose rewrite does not type-check (a bug of the instrumenter) is left as
// it was, with a note, rather than breaking the user's build.
package instrument
