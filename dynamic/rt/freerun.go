package rt

import (
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
)

// After a replay's verdict, once the anomaly's goroutines have had their
// turns alone (replayer.first), every goroutine runs free to the test's
// end, and what is read from that part of the run is how the program ends
// (its output, a panic, a hang, the goroutines left blocked) and, for a
// lost write, the first steps of the goroutines after the schedule
// (check's abandoned). The plain memory accesses of that part were
// recorded in full all the same: on gcache's TestLoaderPurgeVisitorFunc
// (4,000 goroutines, half a million events, the schedule's 2,200 steps
// at its start) each replay recorded the whole run again, under the
// recorder's one lock, and its 58 replays were most of the package's
// time. Past freeKeep of them, plain reads and writes are no longer
// recorded there: nothing decides on them but abandoned, which reads a
// goroutine's next steps after a swap (a cut trace can only keep a
// finding there: a given-up swap is recognized by a read that follows
// it). Synchronization, forks and ends are recorded as before.
//
// Atomic operations, unit markers (RegionBegin, RegionEnd) and the
// Lock, Unlock, RLock and RUnlock of locks past freeKeep of their own are
// not recorded either, nor gated (the gate of a free run grants nothing):
// marusama/semaphore's tests run a million CAS rounds and read-locks
// each, cut at the recording's event cap, and every reproduced replay ran
// the whole test free, each operation taking rt's lock twice against a
// hundred goroutines (10-30 s a replay, against 0.9 s for the recording
// and 3 s for a plain run), and wrote 40-70 MB of trace that check then
// read whole, twice, to judge the finding. Channel operations, WaitGroup,
// Once, Cond, forks and ends stay recorded: the verdicts after the
// schedule (a hang, a leak, a lost signal's waiter) follow them, and so
// do a double lock's and a lock-order inversion's replays' locks
// (freeLocks). Unlike the plain accesses, their cut marks the trace
// truncated (freeCut): check's judges that need the whole run
// (control.go's interleavingIn, a store dead to the goroutine's end) then
// keep their finding, as for any cut trace; those that look at a
// goroutine's next events near the anomaly find them in the first
// freeKeep.
var (
	// freeAll: the replay running decided, and every goroutine runs free
	// (set under mu: syncFree).
	freeAll atomic.Bool
	// freeSeen counts the plain accesses since freeAll was set; freeMoves
	// those not recorded, which the watchdog counts as moves (a program
	// busy with plain accesses is not idle).
	freeSeen  atomic.Int64
	freeMoves atomic.Uint64
	// freeSyncSeen counts the atomic operations, unit markers and lock
	// operations since freeAll was set; freeCut: one of them was not
	// recorded, so the trace is not the whole run (recorder.close marks
	// it).
	freeSyncSeen atomic.Int64
	freeCut      atomic.Bool
	// freeLocks: freeAll, and the replay is neither a double lock's nor
	// a lock-order inversion's, whose verdicts follow the locks held
	// (replayer.hold, gateObj): locks too may go unrecorded.
	freeLocks atomic.Bool
	// freeBase and freeMovesBase: the recorder's written events and
	// freeMoves when freeAll was last set (freeOver counts from there;
	// under mu).
	freeBase      int64
	freeMovesBase uint64
)

// freeKeep is how many plain accesses after freeAll are still recorded
// (a variable for tests), and how many atomic operations, unit markers
// and lock operations.
var freeKeep int64 = 1 << 16

// freeWhole: EnvFreeWhole is set; the atomic operations, unit markers
// and locks of the free run are all recorded (the plain accesses are
// bounded as before).
var freeWhole bool

// syncFree sets freeAll from r's state (mu held): r is the running
// replay, decided, and no goroutine runs alone any more.
func (r *replayer) syncFree() {
	all := rp == r && r.free && r.alone == nil && len(r.first) == 0
	if all && !freeAll.Load() {
		freeSeen.Store(0)
		freeSyncSeen.Store(0)
		freeMovesBase = freeMoves.Load()
		if rec != nil {
			freeBase = rec.events
		}
	}
	freeLocks.Store(all && !r.relock && !r.deadlock) // before freeAll, which skipFreeOf reads first
	freeAll.Store(all)
}

// skipFree reports whether a plain access is not to be recorded (and
// counts it as a move if so).
func skipFree() bool {
	if !freeAll.Load() || freeSeen.Add(1) <= freeKeep {
		return false
	}
	freeMoves.Add(1)
	return true
}

// skipFreeAtomic reports whether an atomic operation or a unit marker is
// neither gated nor recorded: performed as without pecanvet (and counted
// as a move if so).
func skipFreeAtomic() bool { return skipFreeOf(false) }

// skipFreeLock is skipFreeAtomic for a lock's operation (freeLocks).
func skipFreeLock() bool { return skipFreeOf(true) }

func skipFreeOf(lock bool) bool {
	// freeLocks is read only with freeAll: a new recording resets freeAll.
	if !freeAll.Load() || freeWhole || lock && !freeLocks.Load() || freeSyncSeen.Add(1) <= freeKeep {
		return false
	}
	freeMoves.Add(1)
	freeCut.Store(true)
	return true
}

// freeCutWhy is the truncation reason of a trace whose free run left
// atomic operations, unit markers or lock operations unrecorded
// (recorder.close).
func freeCutWhy() string {
	return "free run after the replay's verdict: atomic operations, unit markers and lock operations past the first " + strconv.FormatInt(freeKeep, 10) + " not recorded"
}

// EnvFreeBound (a count of operations, set by check only for a test whose
// recording its cap ended) bounds the free run after a replay's verdict:
// past it, the process ends (freeOver). TestSemaphore_weighted_acquire_gt_
// release of marusama/semaphore runs 100,000 rounds of 100 goroutines; its
// recording stopped at 1024 goroutines (21,439 events, 12 ms), and every
// one of its replays then ran the rest of the test free under the
// recorder, each to the 30 s bound, without a verdict of the test's own
// (a test killed at the bound has no effect: replay's Unended). A test
// that ends a little past its recording's cap (its checks after the last
// goroutines) still gets there: the bound is a multiple of the recorded
// run (check's freeBoundOf). The operations counted are the recorded
// events and those the free run leaves unrecorded (freeMoves): a program
// waiting on a timer or I/O makes none, so a failure that comes after a
// wait (a test's own 10 s timeout) is not cut off.
const EnvFreeBound = "PECANVET_FREE_BOUND"

// freeBound is EnvFreeBound; 0: none.
var freeBound int64

// ExitFreeStop is the exit status of a replay process that freeOver
// ended.
const ExitFreeStop = 6

// freeStopReason is the truncation reason of the trace of a replay that
// freeOver ended.
const freeStopReason = "free run stopped at " + EnvFreeBound

// endFreeRun ends the process of a replay whose free run freeOver stopped
// for why, its verdict written, with the trace finished (a variable for
// tests).
var endFreeRun = func(why string) {
	fmt.Fprintf(os.Stderr, "pecanvet: replay: %s\n", why)
	finish(freeStopReason)
	os.Exit(ExitFreeStop)
}

// freeOver says why the free run of r must stop (mu held), or "": the
// replay is an anomaly's (not a blocking bug's, whose proof is how the
// test ends or blocks), it decided reproduced, explored or interrupted,
// the anomaly's goroutines had their turns alone and every goroutine
// runs free (freeAll: a unit never spans a blocking point, so their
// units have ended), and the free run did more than freeBound
// operations. What the verdict still needed from the run, a failure or
// a panic, did not come within them; the judges that read the replay's
// trace take it as cut (the trace says why).
func (r *replayer) freeOver() string {
	if freeBound <= 0 || rp != r || rec == nil || !freeAll.Load() ||
		r.leak || r.deadlock || r.relock || r.lostSignal || r.observed || r.hung {
		return ""
	}
	if r.verdict != "reproduced" && r.verdict != "explored" && r.verdict != "interrupted" {
		return ""
	}
	n := rec.events - freeBase + int64(freeMoves.Load()-freeMovesBase)
	if n <= freeBound {
		return ""
	}
	return fmt.Sprintf("free run stopped after %d operations, past the bound of %d from the recording's length (%s)", n, freeBound, EnvFreeBound)
}
