package rt

import "sync/atomic"

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
// it). Synchronization, atomics, forks and ends are recorded as before.
var (
	// freeAll: the replay running decided, and every goroutine runs free
	// (set under mu: syncFree).
	freeAll atomic.Bool
	// freeSeen counts the plain accesses since freeAll was set; freeMoves
	// those not recorded, which the watchdog counts as moves (a program
	// busy with plain accesses is not idle).
	freeSeen  atomic.Int64
	freeMoves atomic.Uint64
)

// freeKeep is how many plain accesses after freeAll are still recorded
// (a variable for tests).
var freeKeep int64 = 1 << 16

// syncFree sets freeAll from r's state (mu held): r is the running
// replay, decided, and no goroutine runs alone any more.
func (r *replayer) syncFree() {
	all := rp == r && r.free && r.alone == nil && len(r.first) == 0
	if all && !freeAll.Load() {
		freeSeen.Store(0)
	}
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
