package rt

import (
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// The goroutines of package testing.
//
// Package testing runs every test, and every subtest t.Run starts, on a
// goroutine of its own that it starts itself (uninstrumented: no rt.Go),
// from the goroutine that called t.Run — for a top-level test, the main
// goroutine, which ran package initialization (package-level variable
// initializers, init functions) and a TestMain's code before m.Run. The
// caller waits in t.Run until the test's goroutine has finished (cleanups
// included), unless the test calls t.Parallel. So in Go's memory model
// everything the caller did before t.Run happens before the test, and the
// whole test happens before the caller goes on: without these edges in
// the trace a test goroutine is a root, concurrent with init and TestMain,
// and a global that init writes and a test reads looks like a race.
//
// The runtime records the edges as a fork and a join of the caller, made
// on its behalf while it waits in t.Run:
//
//   - TestFork, called first in every test function (the instrumenter
//     inserts it after `defer rt.TestStart(t)()`), records a fork of the test
//     goroutine by the main goroutine and the test goroutine's begin;
//   - RunAt replaces t.Run: the subtest's goroutine, when its function
//     starts, records a fork by the goroutine that called t.Run, and its
//     begin;
//   - in both, a cleanup registered first (so it runs last, after the
//     test's own cleanups and, for a parent, after its parallel subtests)
//     records the goroutine's end and a join by its caller. For a parallel
//     subtest the caller then waits in package testing for its subtests
//     to finish, so the join still stands where the caller's wait ends.
//
// The fork is recorded when the test's goroutine starts rather than at the
// call, so that a subtest that -run filters out (t.Run returns without
// starting it) leaves no goroutine that never begins. The edge that
// t.Parallel adds (a parallel subtest resumes after its parent's function
// returned) is not recorded: missing it can only leave a prediction that
// replay prunes.
//
// A goroutine the recorder already knows is not adopted again: a test
// function called directly from another test, or as a subtest's function,
// stays the goroutine it is.

// mainGoid is the runtime id of the goroutine that initializes packages
// (rt is initialized before any instrumented package), the one on which
// m.Run starts the top-level tests.
var mainGoid = slowGoid()

// TestFork is called first in a test function, t being its *testing.T:
// the test goroutine becomes a child of the main goroutine (see above).
// site names the test function.
func TestFork(t interface{ Cleanup(func()) }, site int32) {
	if !active.Load() {
		return
	}
	parent := func(w *recorder) *Goroutine { return w.goroutine(mainGoid) }
	if c, p := adopt(parent, site); c != nil {
		t.Cleanup(func() { unadopt(c, p, site) })
	}
}

// RunAt returns t.Run for the call at site, with the subtest's goroutine
// forked by the caller when it starts and joined when it ends (see above).
func RunAt[T interface {
	Run(string, func(T)) bool
	Cleanup(func())
}](t T, site int32) func(string, func(T)) bool {
	return runAt(t, site, -1)
}

// RunEndAt is RunAt that also records the end of the subtest as a write
// of its T at end (see TestEnd): registered after the fork's cleanup, it
// runs after the subtest's own cleanups and before the goroutine's end,
// where package testing marks the subtest done.
func RunEndAt[T interface {
	Run(string, func(T)) bool
	Cleanup(func())
}](t T, site, end int32) func(string, func(T)) bool {
	return runAt(t, site, end)
}

// runAt is RunAt, and RunEndAt when end is not -1.
func runAt[T interface {
	Run(string, func(T)) bool
	Cleanup(func())
}](t T, site, end int32) func(string, func(T)) bool {
	if !active.Load() {
		return t.Run
	}
	return func(name string, f func(T)) bool {
		caller := curGoid()
		parent := func(w *recorder) *Goroutine { return w.goroutine(caller) }
		return t.Run(name, func(t T) {
			if c, p := adopt(parent, site); c != nil {
				t.Cleanup(func() { unadopt(c, p, site) })
			}
			if end != -1 {
				t.Cleanup(func() { testDone(t, end) })
			}
			f(t)
		})
	}
}

// The end of a test.
//
// Package testing marks a (sub)test done (common.done, read without a lock
// by Log, Error, Fail and the others to panic "Log in goroutine after Test
// has completed") once its function returned and its cleanups ran; a
// goroutine that still uses the test's T then races with that write, which
// -race reports inside package testing. The recorder models it: a call of
// a method of the T is a read of the T (the instrumenter wraps the
// receiver), and the end of the test a write of it, so that such a
// goroutine, unordered with the end, is a predicted race.
//
// A subtest's end is recorded by a cleanup (RunEndAt), after its own
// cleanups. A top-level test's trace ends when its function returns,
// before its cleanups run: its end is recorded at the return (TestEnd),
// unless the test registered cleanups of its own, which may wait for the
// goroutines that use t (t.Cleanup(wg.Wait)) with no edge the trace holds.

// TestEnd is deferred by the instrumenter in every test function, after
// TestFork: `defer rt.TestEnd(t, site)()`. The returned function records
// the end of the test as a write of *t at site, unless cleanups were
// registered since TestEnd was called.
func TestEnd(t any, site int32) func() {
	if !active.Load() {
		return func() {}
	}
	n := cleanups(t)
	return func() {
		if n >= 0 && cleanups(t) == n {
			testDone(t, site)
		}
	}
}

// Test is what every test function of an instrumented package starts
// with, `defer rt.Test(t, fork, end)()`: TestStart(t), TestFork(t, fork)
// and TestEnd(t, end) in one call, their ends run in the order two
// deferred calls would run them (TestEnd's, then TestStart's, even if the
// first panics). One call and one defer instead of three calls and two
// defers in each of a package's test functions is less for the compiler
// (issue 30).
func Test(t interface {
	Name() string
	Cleanup(func())
}, fork, end int32) func() {
	start := TestStart(t)
	TestFork(t, fork)
	stop := TestEnd(t, end)
	return func() {
		defer start()
		stop()
	}
}

// testDone records the write of the T that ends its test.
func testDone(t any, site int32) {
	if p := dataPtr(t); p != nil {
		W(p, site)
	}
}

// dataPtr is the pointer an interface holding a pointer carries.
func dataPtr(v any) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1]
}

// cleanups returns how many cleanups the test t (a *testing.T) has
// registered, or -1 if that cannot be told (another type, or a testing
// package without the field).
func cleanups(t any) int {
	v := reflect.ValueOf(t)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return -1
	}
	c := v.Elem().FieldByName("cleanups")
	if !c.IsValid() || c.Kind() != reflect.Slice {
		return -1
	}
	return c.Len()
}

// adopt makes the calling goroutine, if the recorder does not know it yet,
// a child of the goroutine parent returns, which waits for it in package
// testing: it records, on the parent's behalf, a fork at site, then the
// child's begin. It returns the child and the parent, or nils.
func adopt(parent func(*recorder) *Goroutine, site int32) (*Goroutine, *Goroutine) {
	if !active.Load() {
		return nil, nil
	}
	goid := curGoid()
	mu.Lock()
	w := rec
	if w == nil || w.gmap[goid] != nil {
		mu.Unlock()
		return nil, nil
	}
	p := parent(w)
	if p == nil || p.goid == goid {
		mu.Unlock()
		return nil, nil
	}
	// Subtests the same t.Run caller started outside instrumented code
	// before this one have finished, but for paused parallel ones.
	if len(p.runKids) > 0 && !w.joinRunKids(p, goroutineDump()) {
		mu.Unlock()
		return nil, nil
	}
	// Replay gates the fork as the parent's step: it is the parent's event.
	if rp != nil && !rp.free {
		rp.turn(p, site, trace.Fork, passes(trace.Fork))
		if rec != w {
			mu.Unlock()
			return nil, nil
		}
	}
	c := w.child(p)
	w.emit(p, trace.Event{Op: trace.Fork, Obj: c.idx, Site: w.site(site).idx})
	mu.Unlock()
	Begin(c)
	return c, p
}

// unadopt records the end of the calling goroutine c, adopted as a child
// of p, and p's join of it: the last thing c does for its test.
func unadopt(c, p *Goroutine, site int32) {
	if !active.Load() {
		return
	}
	mu.Lock()
	w := rec
	ok := w != nil && c.w == w && w.gmap[curGoid()] == c
	mu.Unlock()
	if !ok {
		return
	}
	// The subtests that uninstrumented code started have all finished.
	mu.Lock()
	ok = rec == w && w.joinRunKids(c, "")
	mu.Unlock()
	if !ok {
		return
	}
	End()
	mu.Lock()
	defer mu.Unlock()
	if rec != w || p.w != w {
		return
	}
	if rp != nil && !rp.free {
		rp.turn(p, site, trace.Join, passes(trace.Join))
		if rec != w {
			return
		}
	}
	w.emit(p, trace.Event{Op: trace.Join, Obj: c.idx, Site: w.site(site).idx})
}

// Subtests that uninstrumented code starts.
//
// A testify suite's suite.Run calls t.Run itself, outside instrumented
// code, once per test method: RunAt does not see the call, and each
// subtest's goroutine used to be a root, with no edge from the test
// before it nor to it from the subtest before. The predictor took the
// subtests for concurrent and moved one's SetupTest before the end of the
// one before; every replay of such a schedule waited for a subtest that
// t.Run had not started ("has not started (started outside instrumented
// code)": gofrs/flock, 148 replays, a minute, nothing found).
//
// The goroutine's stack says who started it: "created by
// testing.(*T).Run in goroutine N". When a goroutine the recorder has not
// seen says so, the recorder knows N, and N waits in t.Run (else the
// goroutine is a parallel subtest seen first after its t.Parallel, begun
// long before), adoptRun makes it N's child as adopt does, with a fork by
// N (everything N did before t.Run happens before the subtest) and the
// child's begin. And t.Run returns only once the subtest it started has
// finished, cleanups included, or paused in t.Parallel until N's test
// returns (package testing: Run may be called from several goroutines,
// but each call returns before the test's function does; assumed: N does
// not call Run of another test after that one's function returned). So
// when N's t.Run starts another subtest, each earlier one that is not
// paused in t.Parallel has done all it will do: its end and N's join of
// it are recorded before the new fork (joinRunKids; adopt too, for a
// subtest RunAt starts after them), and so when N records again
// (resumeRun: its t.Run returned; the suite's TearDownSuite). A paused
// one is not: it resumes alongside the subtests after it. Which are
// paused is read from the goroutine dump (runtime.Stack of all
// goroutines), once per such subtest. When the test that N runs ends
// (unadopt), or a subtest adopted so is joined, every subtest it started
// has finished, the parallel ones too.

// runCreator is the function whose goroutines adoptRun adopts.
const runCreator = "testing.(*T).Run"

// adoptRun makes the calling goroutine id, first seen (mu held), a child
// of the goroutine whose t.Run started it (see above), and returns it;
// nil if its stack does not say so or the recorder does not know that
// goroutine.
func (w *recorder) adoptRun(id int64) *Goroutine {
	n, fn := creator()
	if fn != runCreator || n == id {
		return nil
	}
	p := w.gmap[n]
	if p == nil {
		return nil
	}
	dump := goroutineDump()
	if !inRun(dump, n) {
		// Not a subtest starting: a parallel one seen first after its
		// t.Parallel, which N's later events happen before or not.
		return nil
	}
	if !w.joinRunKids(p, dump) {
		return nil
	}
	if rp != nil && !rp.free {
		rp.turn(p, trace.NoIndex, trace.Fork, passes(trace.Fork))
		if rec != w {
			return nil
		}
	}
	c := w.child(p)
	w.emit(p, trace.Event{Op: trace.Fork, Obj: c.idx, Site: trace.NoIndex})
	if rp != nil && !rp.free {
		rp.turn(c, trace.NoIndex, trace.Begin, passes(trace.Begin))
		if rec != w {
			return nil
		}
	}
	c.goid = id
	w.gmap[id] = c
	w.emit(c, trace.Event{Op: trace.Begin, Obj: trace.NoIndex, Site: trace.NoIndex})
	p.runKids = append(p.runKids, c)
	p.runFresh++
	return c
}

// resumeRun is called (mu held) when p, which started subtests through
// t.Run outside instrumented code, records again: it is running, so each
// t.Run of it has returned, and the subtests it started have finished or
// paused in t.Parallel. The finished ones end and are joined before p's
// event (TearDownSuite after the last test method of a suite).
func (w *recorder) resumeRun(p *Goroutine, id int64) {
	if id != curGoid() {
		return
	}
	w.joinRunKids(p, goroutineDump())
}

// joinRunKids records the end of each subtest adoptRun made p's child that
// has finished, and p's join of it (mu held). dump is the goroutine dump
// taken as p's t.Run starts another subtest; "" when every one has
// finished (p's test ended). It reports false if the recording ended
// meanwhile.
func (w *recorder) joinRunKids(p *Goroutine, dump string) bool {
	if len(p.runKids) == 0 {
		return true
	}
	kids := p.runKids
	p.runKids, p.runFresh = nil, 0
	for i, k := range kids {
		if dump != "" {
			// A paused one resumes alongside the later ones: joined
			// only when p's test ends, and not looked for again.
			if k.runLate || paused(dump, k.goid) {
				k.runLate = true
				p.runKids = append(p.runKids, k)
				continue
			}
		}
		if !w.joinRunKid(p, k) {
			for _, k := range kids[i+1:] {
				if p.runKids = append(p.runKids, k); !k.runLate {
					p.runFresh++
				}
			}
			return false
		}
	}
	return true
}

// joinRunKid records the end of k, a finished subtest, after those of
// the subtests it started, and p's join of it.
func (w *recorder) joinRunKid(p, k *Goroutine) bool {
	if !w.joinRunKids(k, "") {
		return false
	}
	if rp != nil && !rp.free {
		rp.turn(k, trace.NoIndex, trace.End, passes(trace.End))
		if rec != w {
			return false
		}
	}
	w.emit(k, trace.Event{Op: trace.End, Obj: trace.NoIndex, Site: trace.NoIndex})
	if w.gmap[k.goid] == k {
		w.forget(k)
	}
	if rp != nil && !rp.free {
		rp.turn(p, trace.NoIndex, trace.Join, passes(trace.Join))
		if rec != w {
			return false
		}
	}
	w.emit(p, trace.Event{Op: trace.Join, Obj: k.idx, Site: trace.NoIndex})
	return true
}

// stackOf returns the stack of goroutine goid in dump, "" if it is not
// there.
func stackOf(dump string, goid int64) string {
	head := "goroutine " + strconv.FormatInt(goid, 10) + " ["
	i := strings.Index(dump, head)
	for i > 0 && dump[i-1] != '\n' {
		j := strings.Index(dump[i+len(head):], head)
		if j < 0 {
			return ""
		}
		i += len(head) + j
	}
	if i < 0 {
		return ""
	}
	st := dump[i:]
	if j := strings.Index(st, "\n\n"); j >= 0 {
		st = st[:j]
	}
	return st
}

// inRun reports whether goroutine goid waits in t.Run in dump.
func inRun(dump string, goid int64) bool {
	return strings.Contains(stackOf(dump, goid), "\n"+runCreator+"(")
}

// paused reports whether goroutine goid waits in t.Parallel in dump. A
// subtest whose t.Run returned and that does not has finished: gone, or
// on its way out (still in its deferred calls after a t.Skip or
// t.FailNow, whose frames the dump shows, which does not tell that apart
// in time: recording and replay must decide alike).
func paused(dump string, goid int64) bool {
	return strings.Contains(stackOf(dump, goid), "\ntesting.(*T).Parallel(")
}

// goroutineDump returns the stacks of all goroutines.
func goroutineDump() string {
	return string(allStacks(nil, 0))
}
