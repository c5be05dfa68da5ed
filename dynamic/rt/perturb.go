package rt

import (
	"runtime"
	"strconv"
	"time"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// Perturbed recording.
//
// One recorded run may show little: the goroutines ran in an order that
// hid an access, or one of them ran entirely before the other started.
// With PECANVET_PERTURB set to a seed, a recording (never a replay) delays
// goroutines at their instrumented operations, in the spirit of PCT: each
// logical goroutine gets a priority from the seed and its name, a
// goroutine delays before it begins in proportion to its lowness, and at
// its synchronization operations (and, rarely, at plain accesses) it
// yields or sleeps briefly with a probability that also grows with its
// lowness. Every decision is a hash of the seed, the goroutine's logical
// name and the count of its operations so far, so a seed always tries the
// same perturbation of the same program path; the operating system's
// scheduling still decides the rest. Nothing is recorded differently: the
// trace is an ordinary one, of a different run.
//
// Odd seeds run children first instead: after a go statement, the parent
// yields at its next operation until the child has begun (at most
// childFirstWait) and run to its first pause (waitChild), and children do
// not delay before they begin. An ordinary run tends to go on in the
// parent past the go statement; Go's TestRaceNestedArrayCopy, whose parent
// copies a large array that the child writes one element of, sometimes
// shows the child's write only after the whole copy, and the copy then
// records only the parts known when it ran (bigCopy), which leaves nothing
// shared. The one perturbed run by default (seed 1) is this one; check
// asks for it even when the run is slow, as that test's is, when the
// trace shows such a copy before a child began (record.Test.BulkBeforeChild).
//
// With PECANVET_PARENTS_FIRST=1 as well, odd seeds run parents first:
// after a go statement the child waits before it begins until its parent
// reaches an operation that may wait for another goroutine (a sleep, a
// receive, send, lock or WaitGroup wait that would block, a select, a
// Cond's Wait, its end), or has run parentRunOn operations, or for
// parentFirstWait at most. That is the order Go's scheduler tends to give
// (the new goroutine waits in its P's queue while the parent runs on),
// and the one an ordinary run on a loaded machine sometimes does not:
// when the parent's thread loses its CPU right after the go statement,
// another P takes the child at once. check asks for it when the first run
// was nearer children first (record.Test.RunOnAfter), which seed 1 would
// only repeat: the corpus's notifyhint, whose loop goroutine then ran its
// first round before the test's first Add, gave predictions that all
// diverged, and so did its children-first re-recording (1 to 3 runs of
// 12 under load).

// EnvPerturb names the environment variable holding the perturbation seed.
const EnvPerturb = "PECANVET_PERTURB"

// EnvParentsFirst, set to 1 with an odd EnvPerturb seed, runs parents
// first at go statements instead of children.
const EnvParentsFirst = "PECANVET_PARENTS_FIRST"

var (
	perturbSeed  uint64 // 0: off
	parentsFirst bool   // odd seeds: parents first (EnvParentsFirst)
)

func init() {
	if v := getenv(EnvPerturb); v != "" && getenv(EnvSchedule) == "" {
		if s, err := strconv.ParseUint(v, 10, 64); err == nil {
			perturbSeed = s
			parentsFirst = s%2 == 1 && getenv(EnvParentsFirst) == "1"
		}
	}
}

// mix is SplitMix64's finalizer.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

func hashName(seed uint64, name string) uint64 {
	h := mix(seed + 0x9e3779b97f4a7c15)
	for i := 0; i < len(name); i++ {
		h = mix(h ^ uint64(name[i]))
	}
	return h
}

// priority is goroutine name's priority under seed, 0 (lowest) to 3.
func priority(seed uint64, name string) uint64 { return hashName(seed, name) % 4 }

// perturbAt is called before an operation op of the calling goroutine on
// addr (nil: no memory operand) while recording with a seed.
func perturbAt(addr unsafe.Pointer, op trace.Op) {
	if addr != nil {
		if _, stack := self(uintptr(addr)); stack {
			return // not recorded: not an operation of the trace
		}
	}
	mu.Lock()
	w := rec
	if w == nil {
		mu.Unlock()
		return
	}
	g := w.gmap[curGoid()]
	if g == nil {
		// Not seen yet: naming it here could number the roots
		// differently from an unperturbed run (see recorder.goroutine).
		mu.Unlock()
		return
	}
	if c := g.forked; c != nil {
		g.forked = nil
		if perturbSeed%2 == 1 && !parentsFirst {
			mu.Unlock()
			waitBegun(c, childFirstWait)
			waitChild(c, childRunWait)
			return
		}
	}
	if op == trace.Sleep || op == trace.End {
		g.pauses++ // parents first: its children may begin
	}
	g.perturbN++
	h := mix(hashName(perturbSeed, g.name) ^ uint64(g.perturbN)*0x9e3779b97f4a7c15 ^ uint64(op))
	low := 3 - priority(perturbSeed, g.name) // 0 (highest priority) to 3
	mu.Unlock()
	perturbDelay(h, low, op)
}

// childFirstWait bounds how long a parent yields for its child to begin
// (odd seeds). A fixed millisecond of yields is often not enough on a
// loaded machine, whose other processes keep the child's thread off the
// CPU (record.TestChildrenFirst checks the order).
const childFirstWait = 20 * time.Millisecond

// childRunWait bounds how long a parent, its child begun (odd seeds),
// yields for the child to run to its first pause, and childRunOn how
// many of the child's operations. A millisecond of yields, as before,
// was the order's only bound: on a loaded machine the child's thread
// often got no CPU within it, and the parent went on first (check's
// TestObservedHang: subject cancelhang's cancel-first order, the test's
// goroutine's cancel before Fire's check, failed 1 run in 4 at load 4-8).
// A child that blocks where rt does not see it (I/O, uninstrumented
// code) costs its parent childRunWait.
const (
	childRunWait = 50 * time.Millisecond
	childRunOn   = parentRunOn
)

// waitChild yields until goroutine c, begun, has paused since (a sleep,
// an operation that would block, its end: Goroutine.pauses), or run
// childRunOn operations, or for d at most: children first, the parent
// goes on once its child has had its run, as parents first the child
// does (waitParent).
func waitChild(c *Goroutine, d time.Duration) {
	waitUntil(d, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return c.goid == 0 || c.pauses != 0 || c.perturbN >= childRunOn
	})
}

// waitBegun yields until goroutine c has begun (rt.Begin bound it), or
// for d at most: a child that never calls Begin (started in uninstrumented
// code) costs d.
func waitBegun(c *Goroutine, d time.Duration) {
	waitUntil(d, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return c.goid != 0
	})
}

// waitUntil yields until done, or for d by the clock. Inside a synctest
// bubble time.Now is the bubble's fake time, which stands still while a
// goroutine yields: a clock deadline never came, and a child waiting for
// its parent spun until the recording's 2-minute timeout (gammazero/
// workerpool's TestDoWaitStop and TestSubmitWaitStop, recorded parents
// first). So a clock that has not moved for stillRounds rounds of yields
// (about 50 ms of them on a real clock, which moves every round) ends
// the wait too. Counting yields alone is no bound in time: a yield with
// nothing else to run returns at once.
func waitUntil(d time.Duration, done func() bool) {
	start := time.Now()
	deadline, last, still := start.Add(d), start, 0
	for !done() {
		now := time.Now()
		if now.After(deadline) {
			return
		}
		if now.Equal(last) {
			if still++; still >= stillRounds {
				return
			}
		} else {
			last, still = now, 0
		}
		yieldFor(waitRound)
	}
}

// waitRound is one round of yields in waitUntil; stillRounds the rounds
// without the clock moving that end a wait.
const (
	waitRound   = 50 * time.Microsecond
	stillRounds = 1000
)

// parentFirstWait bounds how long a child waits for its parent to pause
// (parents first), and parentRunOn how many of the parent's operations:
// a parent that polls for its child, or waits in code that is not
// instrumented, is not kept waiting for long.
const (
	parentFirstWait = 50 * time.Millisecond
	parentRunOn     = 1000
)

// waitParent yields until g's parent (parents first) has paused since it
// forked g (Goroutine.pauses), or run parentRunOn operations, or for d at
// most; then g lets go of its parent.
func waitParent(g *Goroutine, d time.Duration) {
	waitUntil(d, func() bool {
		mu.Lock()
		defer mu.Unlock()
		p := g.parent
		return p == nil || p.pauses != g.parentPauses || p.perturbN-g.parentOps >= parentRunOn
	})
	mu.Lock()
	g.parent = nil
	mu.Unlock()
}

// perturbBegin is perturbAt for the begin of goroutine g (not yet bound to
// the running goroutine): a lower priority starts later.
func perturbBegin(g *Goroutine) {
	if perturbSeed%2 == 1 {
		if parentsFirst {
			waitParent(g, parentFirstWait)
		}
		return // children first, or parents
	}
	low := 3 - priority(perturbSeed, g.name)
	if low > 0 {
		yieldFor(time.Duration(low) * 500 * time.Microsecond)
	} else {
		runtime.Gosched()
	}
}

// perturbDelay yields or sleeps according to the decision hash h.
func perturbDelay(h, low uint64, op trace.Op) {
	x := h % 64
	if op == trace.Read || op == trace.Write {
		if x < 1+low {
			runtime.Gosched()
		}
		return
	}
	switch {
	case x < 4+4*low: // 6% to 25% of synchronization operations
		yieldFor(time.Duration(1+(h>>8)%4) * 250 * time.Microsecond)
	case x < 8+8*low:
		runtime.Gosched()
	}
}

// yieldFor lets other goroutines run about as long as a sleep of d would,
// by yielding, not sleeping: inside a synctest bubble a sleep waits for
// fake time, which advances only when every goroutine of the bubble is
// durably blocked, and one blocked on a mutex never is; a perturbation
// sleeping while another goroutine waits for a lock the sleeper holds then
// hangs the test (gammazero/workerpool's TestPause did, until the
// recording's timeout). Yields cost nothing when nothing else can run.
func yieldFor(d time.Duration) {
	for i := time.Duration(0); i < d; i += 10 * time.Microsecond {
		runtime.Gosched()
	}
}
