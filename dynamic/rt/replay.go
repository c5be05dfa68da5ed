package rt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// Replay: the deterministic scheduler (PECAN section 7, "Deterministic
// scheduling").
//
// One refinement over PECAN: a goroutine that takes another path only
// after all its anomaly steps ran (the anomaly changed a value it then
// branched on) is not a divergence — it is released to run free and its
// remaining steps are dropped; the anomaly's own events stay scheduled, so
// a "reproduced" verdict still means they happened in the pattern's order.
//
// With PECANVET_SCHEDULE naming a schedule file (trace.Schedule), every
// instrumented operation waits in gate until the schedule gives its
// goroutine the turn. Steps are matched by logical goroutine, op, site and
// occurrence count. A goroutine whose next event is not its next step took
// another branch: the verdict is "diverged". When nothing can move any
// more — every goroutine waits at a gate, in a recorded blocking operation
// or in rt.Sleep, seen in a goroutine dump (stuck.go) — "deadlock", at
// once; waits that a timer or I/O may end get the quiet bound
// (PECANVET_QUIET_MS), and only code busy outside recorded operations the
// stall time. Before that, the virtual clock's earliest sleep or timer
// fires (vclock.go). When the
// last step has run: "reproduced". Then, and after any other verdict,
// every goroutine runs free; if the program then blocks for good, the
// replay process ends at once with the hang in the verdict.
//
// When the turn passes on: an operation the runtime performs and records
// passes it when it is recorded — in a feasible schedule a lock is free, a
// buffered channel ready and a WaitGroup at zero when their turn comes, so
// the replay trace has the schedule's order exactly; an unbuffered send
// passes it at once, since its receive (a later step) completes it; a
// plain read or write, which the instrumented code performs after R/W
// return, passes it when its goroutine reaches its next gate — or, if that
// takes longer than pendingGrace (the goroutine went on into uninstrumented
// code), after that, or at once when nothing runs. A lock that is not free
// when its turn comes holds the turn: nothing moves, a deadlock verdict.
//
// The verdict is written as JSON to PECANVET_VERDICT. Replay also records a
// trace (PECANVET_TRACE) of what ran, for the report.
const (
	EnvSchedule = "PECANVET_SCHEDULE"
	EnvVerdict  = "PECANVET_VERDICT"
	EnvStall    = "PECANVET_STALL_MS" // default 2000
	EnvQuiet    = "PECANVET_QUIET_MS" // default 100
	// EnvExplore ("1") lets a divergence after a changed read run free
	// (explore).
	EnvExplore = "PECANVET_EXPLORE"
	// EnvMarkEnd ("1") prints ScheduleEndMark on the standard output when
	// the schedule's last step has run: what the test printed before it,
	// it printed under the schedule (replay's Verdict.Scheduled).
	EnvMarkEnd = "PECANVET_MARK_END"
	// EnvFreeWhole ("1") records the free run after the verdict whole
	// (freerun.go's freeKeep does not apply): check's interleavingIn
	// looks through all of a control's free run for the anomaly's sites.
	EnvFreeWhole = "PECANVET_FREE_WHOLE"
	// EnvFreeUnscheduled (a step number k, from 1) lets the goroutines of
	// which the schedule names no step run free once step k comes,
	// instead of waiting for its end (replayer.freeFrom).
	EnvFreeUnscheduled = "PECANVET_FREE_UNSCHEDULED"
	// EnvClock (Unix nanoseconds) is the clock at the start of the
	// recorded test whose schedule is replayed (ClockSuffix): the replay
	// starts its clock at the same place in the minute (alignClock).
	EnvClock = "PECANVET_CLOCK"
)

// ScheduleEndMark is the line EnvMarkEnd prints (replay.scheduleEndMark).
const ScheduleEndMark = "pecanvet: the schedule ended"

// markEnd: EnvMarkEnd is set.
var markEnd bool

// freeFrom: EnvFreeUnscheduled's step, from 0; -1 if unset.
var freeFrom = -1

var pendingGrace = 10 * time.Millisecond // a variable for tests

// freeQuiet is how long, after the verdict, every goroutine must wait on
// what a timer or I/O outside the virtual clock may end before the
// program is taken to hang: a hang that dissolves once the schedule lets
// go is the replay's doing, not an effect of the anomaly.
const freeQuiet = 2 * time.Second

// Verdict is what the replayer writes.
type Verdict struct {
	Verdict   string   `json:"verdict"` // reproduced, diverged, deadlock, ended
	Step      int      `json:"step"`    // 1-based step at which it was decided (for reproduced: the number of steps)
	Steps     int      `json:"steps"`
	Goroutine string   `json:"goroutine,omitempty"`
	Expected  string   `json:"expected,omitempty"`
	Actual    string   `json:"actual,omitempty"`
	Waiting   []string `json:"waiting,omitempty"` // deadlock: who waits where
	Message   string   `json:"message,omitempty"`
	// Hang: after the verdict the program stopped moving for good (every
	// goroutine blocked); the process was ended. Who blocks where.
	Hang string `json:"hang,omitempty"`
	// FreeStop: the free run after the verdict passed EnvFreeBound and
	// the process was ended (freeOver): why.
	FreeStop string `json:"free_stop,omitempty"`
	// Outside: a deadlock whose stuck step's goroutine waits outside
	// recorded operations: started by uninstrumented code (a server's
	// handler, say) and not started yet, or blocked in uninstrumented code
	// (an HTTP client waiting for its response). What it waits for can
	// only come from what the steps run so far set off.
	Outside bool `json:"outside,omitempty"`
	// Unstarted (with Outside): the stuck step's goroutine had not started
	// at all (one that uninstrumented code starts, before its creator got
	// there), and Roots lists the roots (goroutines without a recorded
	// fork) that had: g1..gN, as roots are named in order of their first
	// event. No other root could start without more steps run, so check
	// generalizes the deadlock to the schedules that need any other root
	// with no more steps run (doom).
	Unstarted bool     `json:"unstarted,omitempty"`
	Roots     []string `json:"roots,omitempty"`
	// Changed (verdict "explored"): the step number of the changed read
	// (trace.Change) of the diverging goroutine that ran last before it
	// took another path.
	Changed int `json:"changed,omitempty"`
	// Deadlocked (a deadlock schedule's "deadlock"): the goroutines of its
	// waiting acquisitions, each blocked in that Lock (a goroutine dump
	// shows it inside the lock's wrapper) while holding the lock the other
	// waits for, as "g1.1 in lock @x.go:11" — the deadlock the schedule
	// was to prove. Every other verdict leaves it empty.
	Deadlocked []string `json:"deadlocked,omitempty"`
	// Leaked (a leak schedule's "reproduced"): the goroutine of its
	// stranded operation, blocked there forever once the test returned
	// (a goroutine dump shows it inside that channel operation, and the
	// select's goroutine gone), as "g1.1.2 in send ch#1 @x.go:12". A leak
	// schedule's "reproduced" without it proves nothing.
	Leaked []string `json:"leaked,omitempty"`
	// Fired: while the schedule ran, the virtual clock fired a timer's,
	// ticker's or AfterFunc's event with this many steps run (each count
	// once, in order): a goroutine waiting on the program's time saw it
	// pass between step n-1 and step n, while the goroutines with steps
	// on either side were held. check tells by it a failure that follows
	// a goroutine held while a timer fired from one that follows the
	// interleaving (control.go). A sleep's end is not listed: a goroutine
	// that sleeps before its steps is paced by the test (pecanfig1's
	// Second, 5 ms after First), and the schedule's order is the one the
	// sleep asks for, not time it let pass.
	Fired []int `json:"fired,omitempty"`
	// Detour (a race's "reproduced"): a goroutine took another path
	// before its race access and came back to the schedule on it
	// (replayer.detour): where it left and where it came back. What the
	// test did afterwards may be the other path's doing, not the race's.
	Detour string `json:"detour,omitempty"`
	// Silent: the anomaly's steps (numbered from 1) that were atomic
	// stores of the value their location already held: a silent store
	// changes nothing any read can see, wherever it falls (check's
	// silentSerial).
	Silent []int `json:"silent,omitempty"`
	// Rewaited and AfterEnd (a lost signal's "deadlock"): the waiter's
	// Wait of the schedule's last step returned (a later signal woke it)
	// before it blocked in the Wait it is found in, and the verdict was
	// taken after the test had returned. Then what the replay shows is
	// the waiter at rest after the test, which check compares with the
	// recorded run's end (check's restingWaiter).
	Rewaited bool `json:"rewaited,omitempty"`
	AfterEnd bool `json:"after_end,omitempty"`
	// Bubble: a goroutine of a testing/synctest bubble came to a gate.
	// The bubble's clock and its idea of a deadlock know nothing of the
	// replay's holds and let-gos (park.go: a held goroutine is not
	// durably blocked, a stalled one is let go on the real clock), so
	// how the test ended is no evidence (check's Effect).
	Bubble bool `json:"bubble,omitempty"`
}

type occKey struct {
	op   trace.Op
	site string
}

type replayer struct {
	// written: the length of the verdict file's content, once written
	// (write), 0 before.
	written int
	// unwatched: the test ended after the verdict (stopWatch), and watch
	// has exited or is about to; watchDone is closed when it has.
	unwatched bool
	watchDone chan struct{}
	s         *trace.Schedule
	proj      map[string][]int // goroutine → its step indices
	cursor    int
	free      bool
	cond      *park // on mu
	// turns: the goroutine waiting for step i's turn waits on turns[i];
	// idle: the goroutines without steps left wait on it for the end.
	// With one Cond for all, every step woke every parked goroutine (a
	// thousand on ants' pool tests) to find it was not its turn.
	turns   map[int]*park
	idle    *park
	verdict string
	path    string

	// per goroutine (by logical name; Goroutine values differ per recorder)
	next    map[string]int
	freed   map[string]bool // goroutines released after their part of the anomaly
	gone    map[string]bool // goroutines that ended
	isAnom  map[int]bool    // anomaly step indices
	occ     map[string]map[occKey]int
	waiting map[string]trace.Step
	// alone is a goroutine released after its part of the anomaly that
	// runs alone: no step is granted until it may block, ends, or is
	// seen waiting or running long (watch); aloneSince is when it last
	// reached a gate, aloneStart when it began, aloneGates the gates it
	// passed since. See holdAt.
	alone                  *Goroutine
	aloneSince, aloneStart time.Time
	aloneGates             int
	// first: after a verdict that lets the program go on, the anomaly's
	// goroutines still to run alone in turn before the rest (decide).
	first []*Goroutine

	pending      *Goroutine // whose step awaits its completion
	pendingEmit  bool       // completes when pending records its event
	expect       trace.Op   // the op pending must record
	pendingSince time.Time
	// silent: the anomaly steps (from 1) whose atomic store stored the
	// value its location already held (storing).
	silent    []int
	lastMove  time.Time
	stall     time.Duration
	finishing bool

	oc objCheck // replay_objects.go

	// A deadlock schedule (pattern kind "deadlock", a lock-order
	// inversion) ends with one waiting acquisition per goroutine: each is
	// its goroutine's last step, passes the turn on as soon as its gate
	// is passed (the lock will not be free), and asking maps its
	// goroutine to it. Its proof is the deadlock that follows, not the
	// end of the schedule (deadlockVerdict). Its object is taken at the
	// gate (Goroutine.gateObj), since its event is never recorded.
	// rwWriter: the schedule is a recursive read lock behind a writer
	// (deadlock/rlock-writer): its writer's Lock passes the turn on only
	// once it waits inside the RWMutex (awaitWriter), so that the second
	// RLock, next, finds a writer pending and queues behind it.
	// lostSignal: the schedule is a lost signal's (deadlock/lost-signal):
	// it ends with the Wait's entry, after the signal; its proof is the
	// waiter blocked in that Wait once nothing moves (deadlockVerdict).
	// Once its last step has run, every goroutine runs free (lostFree,
	// marked freed at its gate), the verdict still pending: a goroutine
	// held at a gate may be the one whose later Signal, after a state
	// change the waiter's guard re-checks, ends the Wait, so the Wait is
	// lost only if it stays blocked when nothing else can move.
	deadlock   bool
	rwWriter   bool
	lostSignal bool
	lostFree   bool
	asking     map[string]int
	// lostWoken: after a lost signal's schedule ran, its waiter recorded
	// a cond-wait, the return of the Wait of its last step.
	lostWoken bool
	// relock: the schedule is a double lock's (deadlock/double-lock): it
	// ends with the read that the write before it changed. Its reader
	// (relockG) then runs free, down the path the new value picks; held
	// counts the locks each goroutine holds (from its recorded lock
	// events), and relockHit describes the reader's acquisition of a
	// mutex it holds, noted at its gate. The proof is the reader blocked
	// in that acquisition once nothing moves (relockVerdict).
	//
	// inversion: the schedule is a stale read's lock-order inversion
	// (deadlock/lock-order-stale), run as a double lock's (relock set):
	// the read comes first and its reader runs free; relockHit then
	// notes its acquisitions of a lock another goroutine holds, and the
	// proof is a wait-for cycle between the reader and that goroutine
	// once nothing moves (inversionVerdict).
	//
	// onceRun: the schedule is a deadlock through sync.Once's
	// (deadlock/once-run), run as a stale read's inversion: its anomaly
	// is t1's lock, t2's call of Do (relockG), whose lock of the Once it
	// takes (it runs the function, then runs free into it), and t1's call
	// of Do, which waits (ask); the proof is the same wait-for cycle.
	relock    bool
	inversion bool
	onceRun   bool
	relockG   string
	held      map[string]map[int32]*heldLock
	relockHit string

	// A leak schedule (pattern kind "leak") ends with a select's case and
	// its partner: the select, at its gate, waits for the case's turn and
	// then runs without it (leakSel), so that it takes another branch;
	// its goroutine then runs free and the partner's operation gets the
	// turn, which it passes on at once. Its proof is the partner blocked
	// forever when the test has returned (leakProof), not the end of the
	// schedule.
	leak        bool
	leakSel     *Goroutine
	leakChecked bool
	// stolen: the leak schedule is a stolen partner's (its two anomaly
	// steps are operations of one direction: a competing receiver, or
	// sender, and the one it strands). Its first step is an ordinary
	// operation that takes the partner, a select's case included; the
	// proof does not ask its goroutine to be gone.
	stolen bool
	// observed: the leak schedule is an observed leak's (pattern
	// leak/observed, one anomaly step): the recorded order, then the
	// operation the recorded run ended its test blocked in. Its proof is
	// leakProof's without a select.
	observed bool
	// hung: an observed hang's schedule (hungPattern), replayed as an
	// observed leak's; proved only by the process hanging after it.
	hung bool

	// Exploration (RaceFuzzer, Sen, PLDI 2008: reverse a race, then run
	// free). changed: per goroutine, the step indices of its reads that
	// observe another write than in the recording (trace.Schedule's
	// Changed). With explore set, a goroutine that takes another path
	// after one of its changed reads ran does not end the replay: the
	// verdict is "explored", every gate opens, and the program runs free
	// to its end; the driver judges how it ends (replay's judge).
	explore bool
	changed map[string][]int

	// Detour (a race's schedule only): a goroutine that takes another
	// path before its part of the race, at its own turn, runs on alone
	// (detour) until it reaches one of its next steps up to its race
	// access — the schedule names no other goroutine's step before that,
	// so everyone else stays held — and the schedule resumes there, its
	// skipped steps dropped. scs's StopCleanup is deferred: a test that
	// took its t.Fatalf branch (its read of the map changed) still reaches
	// it, and the race on stopCleanup with it. A race is proved by its two
	// accesses at their gates together (coenabled), whatever path led
	// there. detourV is the divergence the detour replaced, decided if it
	// never comes back; detourGates counts its gates; detoured says, once
	// it came back, where it left and rejoined (Verdict.Detour).
	detour      *Goroutine
	detourV     Verdict
	detourTo    []int // g's step indices (into proj) it may come back at
	detourGates int
	detoured    string
	sleepBuf    []byte    // detourSleep's dumps (under mu)
	detourLook  time.Time // when detourSleep's last dump found only the clock able to end a wait
	detourSoft  bool      // and whether it found a wait outside recorded operations

	// freeFrom, when not -1: once the cursor reaches step freeFrom, a
	// goroutine of which the schedule names no step runs free (it is
	// marked freed at its gate) instead of waiting for the schedule's
	// end; the scheduled goroutines keep their order. A control replay
	// (check/control.go): a schedule holds such a goroutine for as long
	// as it runs, while the virtual clock may move past a sleep of
	// another (go-quartz's errCurlJob run, started at its 800 ms tick,
	// held until after the test's 1 s sleep, then racing the test's
	// check of its status). Before freeFrom they wait as in any replay,
	// so that the prefix runs as it did.
	freeFrom int

	// partnerOf: the race's first access waits at its turn for the
	// second's goroutine to reach the second access (coenabled).
	partnerOf int // step index the first access waits for; -1: none

	// Quiescence (stuck.go): moves counts every change a goroutine makes
	// (an event, arriving at or leaving a gate, a sleep); a dump is taken
	// only when it stands still.
	moves      uint64
	quiet      time.Duration // bound for waits a timer or I/O may end
	quietSince time.Time     // when the process was first seen quiescent with such waits
	// thawed: the schedule's hold on the clock is let go until the next
	// move, nothing having moved for holdQuiet (vclock.go).
	thawed    bool
	lastQ     quiescence    // of the last dump
	final     Verdict       // the verdict written
	endCh     chan struct{} // closed by decide while the process ends
	endReason string

	// clockFires counts the events of the virtual clock fired while the
	// cursor stood at clockCursor.
	clockCursor, clockFires int
	// poller: the goroutine whose sleep the stuck rule's last move ended
	// with the clock held; its next sleep may end at once (sleepAtOnce).
	poller string
	// freeFires counts the events the watcher fired after the verdict
	// (clockMayMove).
	freeFires int
	// fired: the cursors at which a timer of the clock fired while the
	// schedule ran (Verdict.Fired).
	fired []int

	// pendingChecked is when the watcher last found the goroutine of the
	// pending plain access runnable (pendingDone).
	pendingChecked time.Time

	// bubble: a goroutine in a synctest bubble reached a gate
	// (Verdict.Bubble).
	bubble bool
}

// endGrace bounds how long the end of the process waits for the schedule.
const endGrace = time.Second

var rp *replayer

// replayProcess is set when the environment started the recorder (a test
// process of its own, not rt's tests): a hang after the verdict ends it.
var replayProcess bool

// startReplay loads the schedule named by the environment, if any. It runs
// after the recorder started (replay records what it runs).
func startReplay() error {
	path := getenv(EnvSchedule)
	if path == "" {
		return nil
	}
	markEnd = getenv(EnvMarkEnd) == "1"
	freeWhole = getenv(EnvFreeWhole) == "1"
	freeBound, _ = strconv.ParseInt(getenv(EnvFreeBound), 10, 64)
	freeFrom = -1
	if k, err := strconv.Atoi(getenv(EnvFreeUnscheduled)); err == nil && k > 0 {
		freeFrom = k - 1
	}
	clock, _ := strconv.ParseInt(getenv(EnvClock), 10, 64)
	return startReplayFrom(path, getenv(EnvVerdict), getenv(EnvExplore) == "1", clock)
}

// startReplayFrom loads the schedule at path, the verdict to go to
// verdictPath; explore: see replayer.explore; clock: EnvClock, 0 if
// unknown.
func startReplayFrom(path, verdictPath string, explore bool, clock int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	s, err := trace.ParseSchedule(f, path)
	if err != nil {
		return err
	}
	stall := 2 * time.Second
	if v := getenv(EnvStall); v != "" {
		if ms, err := strconv.Atoi(v); err == nil && ms > 0 {
			stall = time.Duration(ms) * time.Millisecond
		}
	}
	quiet := 100 * time.Millisecond
	if v := getenv(EnvQuiet); v != "" {
		if ms, err := strconv.Atoi(v); err == nil && ms >= 0 {
			quiet = time.Duration(ms) * time.Millisecond
		}
	}
	onceRun := strings.HasPrefix(s.Pattern, "deadlock/once-run") && len(s.Anomaly) == 3
	r := &replayer{
		s: s, proj: map[string][]int{}, cond: newPark(), turns: map[int]*park{}, idle: newPark(),
		next: map[string]int{}, occ: map[string]map[occKey]int{}, waiting: map[string]trace.Step{},
		freed: map[string]bool{}, gone: map[string]bool{}, isAnom: map[int]bool{},
		path: verdictPath, lastMove: realNow(), stall: stall, quiet: quiet,
		partnerOf: -1,
		deadlock:  strings.HasPrefix(s.Pattern, "deadlock/") && s.Pattern != hungPattern, asking: map[string]int{},
		rwWriter:   strings.HasPrefix(s.Pattern, "deadlock/rlock-writer"),
		lostSignal: strings.HasPrefix(s.Pattern, "deadlock/lost-signal") && len(s.Anomaly) == 2,
		leak:       strings.HasPrefix(s.Pattern, "leak/") && len(s.Anomaly) == 2 || (s.Pattern == observedPattern || s.Pattern == hungPattern) && len(s.Anomaly) == 1,
		observed:   (s.Pattern == observedPattern || s.Pattern == hungPattern) && len(s.Anomaly) == 1,
		hung:       s.Pattern == hungPattern && len(s.Anomaly) == 1,
		relock:     (strings.HasPrefix(s.Pattern, "deadlock/double-lock") || strings.HasPrefix(s.Pattern, "deadlock/lock-order-stale")) && len(s.Anomaly) == 2 || onceRun,
		inversion:  strings.HasPrefix(s.Pattern, "deadlock/lock-order-stale") && len(s.Anomaly) == 2 || onceRun,
		onceRun:    onceRun,
		held:       map[string]map[int32]*heldLock{},
		explore:    explore && !strings.HasPrefix(s.Pattern, "deadlock/") && !strings.HasPrefix(s.Pattern, "leak/"), changed: map[string][]int{},
		freeFrom: freeFrom,
	}
	r.stolen = r.leak && !r.observed && s.Steps[s.Anomaly[0]].Op == s.Steps[s.Anomaly[1]].Op
	for _, c := range s.Changed {
		g := s.Steps[c.Read].G
		r.changed[g] = append(r.changed[g], c.Read)
	}
	if r.relock {
		// The reader: the anomaly's read (the write comes first or last);
		// a Once's, the goroutine whose call of Do runs the function.
		r.relockG = s.Steps[s.Anomaly[1]].G
		if s.Steps[s.Anomaly[0]].Op == trace.Read {
			r.relockG = s.Steps[s.Anomaly[0]].G
		}
	}
	for i, st := range s.Steps {
		r.proj[st.G] = append(r.proj[st.G], i)
	}
	for _, i := range s.Anomaly {
		r.isAnom[i] = true
	}
	r.watchDone = make(chan struct{})
	mu.Lock()
	if clock != 0 {
		alignClock(time.Unix(0, clock), clockPeriod)
	}
	holdClock() // the schedule takes hold (vclock.go)
	rp = r
	r.syncFree()
	mu.Unlock()
	go r.watch()
	return nil
}

// stopWatch ends the watcher when the test has ended after its replay's
// verdict: what runs after the test (a TestMain's leak check, such as
// goleak's) must not find pecanvet's goroutine, and a hang there is
// bounded by the replay's timeout. It waits a little for the watcher to
// exit.
func stopWatch() {
	mu.Lock()
	r := rp
	if r == nil || r.verdict == "" {
		mu.Unlock()
		return
	}
	r.unwatched = true
	runClock() // no watcher moves it any more (vclock.go)
	mu.Unlock()
	select {
	case <-r.watchDone:
	case <-time.After(50 * time.Millisecond):
	}
}

// passes reports how an op hands the turn on: 1 when recorded (the
// runtime performs the operation and then records it; in a feasible
// schedule a lock is free, a buffered channel ready, a WaitGroup at zero
// when their turn comes, so they do not block), 2 at the goroutine's next
// gate (plain accesses, which happen after R/W return). An unbuffered send
// passes at its gate (0): its receive, a later step, must run for it to
// complete; gateSend handles it.
func passes(op trace.Op) int {
	if op == trace.Read || op == trace.Write {
		return 2
	}
	return 1
}

// gate is the turnstile: see the comment at the top of this file. addr is
// the object operated on, if any: operations on the goroutine's own stack
// are not recorded (see self), so they are not scheduled either.
func gate(addr unsafe.Pointer, site int32, op trace.Op) { gateRW(addr, site, op, nil) }

// gateRW is gate for a lock operation; rw is the RWMutex of an
// RWMutex.Lock, else nil (replayer.awaitWriter). addr must not be stored:
// it would escape, and every instrumented local with it.
func gateRW(addr unsafe.Pointer, site int32, op trace.Op, rw *sync.RWMutex) {
	if rp == nil {
		if perturbSeed != 0 {
			perturbAt(addr, op)
		}
		return
	}
	if addr != nil {
		if _, stack := self(uintptr(addr)); stack {
			return
		}
	}
	mu.Lock()
	if rp != nil && !rp.free && rec != nil && !quietLocked(site, op) {
		if rp.deadlock && op.IsAcquire() && addr != nil {
			g := rec.cur()
			g.gateObj = rec.object(uintptr(addr), classLock, rec.site(site).desc)
			g.gateRW = rw
			if rp.relock {
				rp.noteRelock(g, g.gateObj, op, site)
			}
		}
		rp.turn(rec.cur(), site, op, passes(op))
	} else if rp != nil && rp.free && rp.alone != nil && rec != nil && rec.cur() == rp.alone {
		rp.aloneAfter(op)
	}
	mu.Unlock()
}

// aloneAfter is called (mu held) when r.alone reaches a gate of op after
// the verdict. The gate grants nothing and holds no one: it is counted
// (aloneSpins), and before an operation that may block the hold ends, as
// holdAt's does before the verdict, so that what the goroutine waits for
// can come. Without that, the hold ended only at the watch's look after
// pendingGrace: lossyconn's TestScheduledPeerProfiles, whose test
// goroutine ran alone into ReadFrom's select for the packet the held
// sender had taken off its queue, waited those 10 ms out of the 10 ms its
// timing check leaves, and failed in most replays and controls alike (the
// timedsender.go:94 asv and av, reported by that effect).
func (r *replayer) aloneAfter(op trace.Op) {
	r.aloneGates++
	if mayBlock(op) {
		r.endHold()
	}
}

// mayBlock reports whether an operation of op may wait for another
// goroutine (or the clock): a goroutine running alone is held no further.
func mayBlock(op trace.Op) bool {
	switch op {
	case trace.Read, trace.Write, trace.AtomicLoad, trace.AtomicStore, trace.AtomicRMW,
		trace.Unlock, trace.RUnlock, trace.Fork, trace.Close, trace.WGAdd, trace.WGDone,
		trace.CondSignal, trace.CondBroadcast, trace.RegionBegin, trace.RegionEnd:
		return false
	}
	return true
}

// scheduledNext reports, for the calling goroutine under a schedule,
// whether its next step is op at site, or it has none left (replaying
// false: no schedule runs). A Locker of the module's own (a spin lock) is
// instrumented: its Lock records steps of its own, which the trace holds
// before the lock event, while a sync.Mutex's Lock records nothing inside.
func scheduledNext(site int32, op trace.Op) (replaying, yes bool) {
	mu.Lock()
	defer mu.Unlock()
	if rp == nil || rp.free || rec == nil {
		return false, false
	}
	g := rec.cur()
	rp.markUnscheduled(g)
	mine := rp.proj[g.name]
	i := rp.next[g.name]
	if i >= len(mine) || rp.freed[g.name] {
		return true, true
	}
	st := rp.s.Steps[mine[i]]
	siteName := ""
	if site >= 0 {
		siteName = rec.tab.Name(trace.TabSite, rec.site(site).idx)
	}
	return true, st.Op == op && st.Site == siteName
}

// observedNext reports whether the calling goroutine's next step under an
// observed leak's schedule is its last, op at site: the operation the
// recorded run ended blocked in.
func observedNext(site int32, op trace.Op) bool {
	if rp == nil {
		return false
	}
	mu.Lock()
	defer mu.Unlock()
	if rp == nil || !rp.observed || rp.free || rec == nil {
		return false
	}
	g := rec.cur()
	mine := rp.proj[g.name]
	i := rp.next[g.name]
	if i >= len(mine) || rp.freed[g.name] || mine[i] != rp.s.Anomaly[0] {
		return false
	}
	st := rp.s.Steps[mine[i]]
	return st.Op == op && site >= 0 && st.Site == rec.tab.Name(trace.TabSite, rec.site(site).idx)
}

// gateOmit is called where the runtime's model has an event that this
// execution does not produce (a WaitGroup access of the race detector's
// model: an Add not from 0 reads nothing, a Wait that does not block
// writes nothing). If the schedule expects that event of the goroutine
// next, its turn passes without it, so that a schedule that reorders the
// WaitGroup's users does not diverge on the model alone. An anomaly step
// is not passed: without its event the anomaly did not happen.
func gateOmit(addr unsafe.Pointer, site int32, op trace.Op) {
	if rp == nil {
		return
	}
	if addr != nil {
		if _, stack := self(uintptr(addr)); stack {
			return
		}
	}
	mu.Lock()
	if rp != nil && !rp.free && rec != nil {
		rp.omit(rec.cur(), site, op)
	}
	mu.Unlock()
}

// gateSend gates a send on a channel of capacity c.
func gateSend(site int32, c int) {
	if rp == nil {
		if perturbSeed != 0 {
			perturbAt(nil, trace.Send)
		}
		return
	}
	pass := 1
	if c == 0 {
		pass = 0
	}
	mu.Lock()
	if rp != nil && !rp.free && rec != nil {
		rp.turn(rec.cur(), site, trace.Send, pass)
	}
	mu.Unlock()
}

// gateG is gate for a goroutine not yet bound to the running one (Begin).
func gateG(g *Goroutine, site int32, op trace.Op) {
	if rp == nil && perturbSeed != 0 && g != nil {
		perturbBegin(g)
	}
	if rp == nil || g == nil {
		return
	}
	mu.Lock()
	if rp != nil && !rp.free && rec != nil && g.w == rec {
		rp.turn(g, site, op, passes(op))
	}
	mu.Unlock()
}

// storing reports (mu held), for an atomic store about to run, whether
// it is an anomaly step of the schedule: the step that holds the turn,
// the caller's, granted and waiting for its event. The caller then
// compares the old value with the new one and, if equal, calls
// storedSilently.
func storing() bool {
	r := rp
	return r != nil && !r.free && rec != nil && r.pendingEmit && r.expect == trace.AtomicStore &&
		r.cursor < len(r.s.Steps) && r.isAnom[r.cursor] && r.pending == rec.cur()
}

// storedSilently notes (mu held) that the anomaly step storing reported
// stores the value already there.
func storedSilently() {
	rp.silent = append(rp.silent, rp.cursor+1)
}

// recorded is called (under mu) when g records an event with op.
func (r *replayer) recorded(g *Goroutine, op trace.Op) {
	r.moves++
	if r.lostFree && op == trace.CondWait && g.name == r.s.Steps[r.s.Anomaly[1]].G {
		r.lostWoken = true
	}
	if op == trace.End {
		r.gone[g.name] = true
		if r.alone == g {
			r.endHold()
		}
	}
	if k, ok := r.asking[g.name]; ok && op.IsAcquire() && !r.free {
		r.decide(Verdict{Verdict: "diverged", Step: k + 1, Goroutine: g.name, Expected: r.s.Steps[k].Key(),
			Message: fmt.Sprintf("goroutine %s got the lock of step %d (%s): no deadlock", g.name, k+1, r.s.Steps[k])})
		return
	}
	if r.pending == g && r.pendingEmit && !r.free {
		r.pending = nil
		if op != r.expect {
			// A CompareAndSwap that failed where the recorded one swapped,
			// or the other way round.
			r.decide(r.explored(Verdict{Verdict: "diverged", Step: r.cursor + 1, Goroutine: g.name, Expected: r.s.Steps[r.cursor].Key(),
				Actual:  op.String(),
				Message: fmt.Sprintf("goroutine %s: step %d expects %s, the operation was a %s", g.name, r.cursor+1, r.s.Steps[r.cursor], op)}))
			return
		}
		r.advance()
	}
}

// atGateNext is called when g reaches a gate (mu held): a plain access of
// g's that holds the turn is done. Every gate must call it before waiting
// for a turn of its own: a select's gate did not, and the schedule stood
// still until pendingGrace passed the turn on, 10 ms for every task of an
// ants worker, whose loop is a select (about 1100 times in a 20 s replay).
func (r *replayer) atGateNext(g *Goroutine) {
	if r.pending == g {
		r.pending = nil
		r.advance()
	}
}

// turn waits, with mu held, until the step of g's operation comes.
func (r *replayer) turn(g *Goroutine, site int32, op trace.Op, pass int) {
	r.moves++
	if !r.bubble && !g.bubbleAsked {
		// A goroutine's bubble is its creator's for good: asked once,
		// not at each step (time.Now). The asker is g or, for a
		// subtest's Begin and End (testgo.go), its parent, which shares
		// its bubble.
		g.bubbleAsked = true
		r.bubble = inBubble()
	}
	if g.preSel != 0 && !r.afterSelect(g, site, op) {
		return
	}
	r.atGateNext(g)
	r.markUnscheduled(g)
	if r.free || r.freed[g.name] {
		r.waitAlone(g)
		if r.alone == g {
			r.holdAt(op)
		}
		return
	}
	siteName := ""
	if site >= 0 {
		siteName = rec.tab.Name(trace.TabSite, rec.site(site).idx)
	}
	if r.leakSel == g {
		r.selectedOther(g, op, siteName)
		return
	}
	occ := r.occ[g.name]
	if occ == nil {
		occ = map[occKey]int{}
		r.occ[g.name] = occ
	}
	mine := r.proj[g.name]
	i := r.next[g.name]
	// A CompareAndSwap gates as a read-modify-write but records a load if
	// it fails: it matches either; recorded checks the outcome.
	if op == trace.AtomicRMW && i < len(mine) {
		if st := r.s.Steps[mine[i]]; st.Op == trace.AtomicLoad && st.Site == siteName {
			op = trace.AtomicLoad
		}
	}
	k := occKey{op, siteName}
	occ[k]++
	n := occ[k]
	if r.detour == g {
		if j := r.detourMatch(op, siteName, n); j >= 0 {
			r.endDetour(g, i, j, op, siteName, n)
			r.take(g, j, op, pass)
			return
		}
		// It moves: the clock may fire its sleeps again (quiescent's
		// bound is for a schedule standing still).
		r.clockFires = 0
		if r.detourGates++; r.detourGates > maxDetourGates {
			v := r.detourV
			v.Message += fmt.Sprintf("; it did not come back to the schedule within %d operations", maxDetourGates)
			r.detour, r.detourTo = nil, nil // (decide would add that it did not come back)
			r.decide(v)
		}
		return // on its way, everyone else held
	}
	if i >= len(mine) && r.relock && g.name == r.relockG {
		// A double lock's reader after its read: it goes down the path
		// the changed value picks, to the lock it holds. It runs free
		// without deciding the verdict (release would): the proof is
		// the hang that follows (relockVerdict).
		r.moves++
		r.freed[g.name] = true
		r.lastMove = realNow()
		return
	}
	if i >= len(mine) {
		// No more steps for g: it waits until the schedule is done (or,
		// with none at all, until freeFrom).
		r.waiting[g.name] = trace.Step{G: g.name, Op: op, Site: siteName, N: n}
		for !r.free && !r.markUnscheduled(g) {
			r.idle.Wait()
		}
		delete(r.waiting, g.name)
		r.waitAlone(g)
		if r.alone == g {
			r.holdAt(op)
		}
		return
	}
	st := r.s.Steps[mine[i]]
	if st.Op != op || st.Site != siteName || st.N != n {
		if r.doneWithAnomaly(g.name, mine[i]) {
			// g has no anomaly step left: it took another path only after
			// its part of the anomaly (typically because the anomaly changed
			// a value it reads). Any execution in which the anomaly's
			// events happen in order proves it, so g runs free from here
			// and its remaining steps are dropped.
			r.release(g.name)
			if !r.free {
				r.setAlone(g)
				r.holdAt(op)
			}
			return
		}
		if r.othersDone(g.name) {
			// Every other goroutine's part of the anomaly ran, in order,
			// inside g's unit; g then took another path before finishing
			// its part. That is the anomaly's effect if the program then
			// fails; the driver decides on that (verdict "interrupted").
			r.decide(Verdict{Verdict: "interrupted", Step: mine[i] + 1, Goroutine: g.name, Expected: st.Key(),
				Actual:  trace.Step{G: g.name, Op: op, Site: siteName, N: n}.Key(),
				Message: fmt.Sprintf("after the interleaving, goroutine %s took another path: step %d expects %s, it did %s @%s n=%d", g.name, mine[i]+1, st, op, siteName, n)})
			return
		}
		if r.explore && r.verdict == "" && r.cursor < mine[i] && r.changedRead(g.name, mine[i]+1) >= 0 {
			// An exploration starts at the turn of the step g left: the
			// steps before it, of other goroutines, run first, as the
			// schedule orders them. Freed at its gate, g raced the
			// operation granted just before it (drainstatus: Write's CAS
			// after its changed read against Maintain's Store(idle), step
			// 16 of 17), and the free run failed or passed by which of
			// the two ran first: by the machine's load, not the schedule.
			r.waiting[g.name] = trace.Step{G: g.name, Op: op, Site: siteName, N: n}
			r.waitTurn(mine[i])
			delete(r.waiting, g.name)
			if r.free {
				return
			}
		}
		v := r.explored(Verdict{Verdict: "diverged", Step: mine[i] + 1, Goroutine: g.name, Expected: st.Key(),
			Actual:  trace.Step{G: g.name, Op: op, Site: siteName, N: n}.Key(),
			Message: fmt.Sprintf("goroutine %s took another path: step %d expects %s, it did %s @%s n=%d", g.name, mine[i]+1, st, op, siteName, n)})
		if v.Verdict == "diverged" && r.startDetour(g, i, v) {
			return
		}
		r.decide(v)
		return
	}
	r.take(g, i, op, pass)
}

// maxDetourGates bounds a detour (replayer.detour): a goroutine that
// passes this many gates without coming back to its schedule (a loop
// waiting for a goroutine the schedule holds) diverged.
const maxDetourGates = 10000

// startDetour starts a detour (mu held) for goroutine g, which left the
// path at its i-th step, v the divergence: only in a race's schedule,
// before any goroutine's race access ran and while g's steps from its
// i-th on, up to its race access, are the schedule's next ones, none of
// another goroutine between. It waits for the turn of g's i-th step
// first: the steps the schedule puts before it run as ordered. It
// reports whether the detour started (or the schedule ended meanwhile).
func (r *replayer) startDetour(g *Goroutine, i int, v Verdict) bool {
	a := r.s.Anomaly
	if r.detoured != "" || r.verdict != "" || r.free || !strings.HasPrefix(r.s.Pattern, "race/") || len(a) != 2 || r.cursor > a[0] {
		return false
	}
	mine := r.proj[g.name]
	for _, c := range r.changed[g.name] {
		if c < mine[i] && r.s.Steps[c].Obj == r.s.Steps[a[0]].Obj {
			// Its path changed at a read of the race's own object: the
			// race it reaches on the other path follows from that one,
			// reported on its own (lazyinit's second getConn found conn
			// nil, dialed, set conn, and read it at :29 beside the
			// first one's write).
			return false
		}
	}
	var to []int
	for j := i; j < len(mine) && mine[j] == mine[i]+(j-i); j++ {
		to = append(to, j)
		if r.isAnom[mine[j]] {
			break
		}
	}
	if !r.isAnom[mine[to[len(to)-1]]] {
		return false // another goroutine's step comes before g's race access
	}
	r.waiting[g.name] = r.s.Steps[mine[i]]
	r.waitTurn(mine[i])
	delete(r.waiting, g.name)
	if r.free {
		return true
	}
	r.detour, r.detourV, r.detourTo, r.detourGates = g, v, to, 0
	// A crash on the way is this divergence's, not the race's.
	r.write(v)
	r.moves++
	r.lastMove = realNow()
	return true
}

// detourSleep fires e, the sleep of g on its detour, at once (mu held,
// released for a goroutine dump and taken again) when the clock is all
// that could end a wait: e is its earliest event, no other goroutine is
// busy, and none waits outside recorded operations unless a timer is
// pending — quiescent's rule, by which the watcher fires it too, but only
// after a tick with nothing moving and a dump of its own, a millisecond or
// more a sleep under load. A detour that polls with sleeps for a goroutine
// the schedule holds then met the stall bound (2 s) long before
// maxDetourGates (race testdata's TestNoRaceIOFile and
// TestNoRaceMutexPureHappensBefore: four replays of 2 s), and one that
// polls and comes back (scs's test, its 200 tries before t.Fatalf) had to
// do so within it.
//
// A dump found so holds for detourLookFor: a dump stops the world, and
// one at every sleep was most of such a poll's time (48 µs of 59 a
// sleep at load 38). Within it only g runs of the instrumented
// goroutines (the others are held); what it may wake outside them gets
// its due at the next dump. The detour claims no effect, and the race
// it may come back to is proved by its two accesses at their gates
// together: when a sleep ends changes only whether it comes back.
func (r *replayer) detourSleep(g *Goroutine, e *timed) {
	if r.free || r.verdict != "" {
		return
	}
	if realNow().Sub(r.detourLook) >= detourLookFor {
		r.detourLook = time.Time{}
		buf := r.sleepBuf
		if buf == nil {
			buf = make([]byte, 64<<10)
		}
		mu.Unlock()
		gs, buf := dumpGoroutines(buf)
		at := realNow()
		mu.Lock()
		r.sleepBuf = buf
		soft := false
		for _, x := range gs {
			switch {
			case x.class == gBusy && !(x.watcher && !busyState(x.state)):
				return
			case x.class == gSoft && !x.signal:
				soft = true
			}
		}
		r.detourLook, r.detourSoft = at, soft
	}
	if rp != r || r.detour != g || r.free || r.verdict != "" || r.pending != nil || !pending(e) || earliest() != e {
		return
	}
	if r.detourSoft && clock.timers == 0 {
		return // only sleeps pending: they fire in real time (quiescent)
	}
	advanceTo(e.due)
	r.moves++
}

// detourLookFor is how long a dump that found only the clock able to end
// a wait lets a detour's sleeps fire at once (detourSleep): the watcher's
// tick.
const detourLookFor = time.Millisecond

// detourMatch is the index (into the detouring goroutine's steps) of the
// step op at site, its n-th there, is, or -1.
func (r *replayer) detourMatch(op trace.Op, site string, n int) int {
	for _, j := range r.detourTo {
		st := r.s.Steps[r.proj[r.detour.name][j]]
		if st.Op == op && st.Site == site && st.N == n {
			return j
		}
	}
	return -1
}

// endDetour ends g's detour (mu held) at its j-th step, having left at its
// i-th: the steps between, all g's and none of the race, are dropped.
func (r *replayer) endDetour(g *Goroutine, i, j int, op trace.Op, site string, n int) {
	mine := r.proj[g.name]
	r.detoured = fmt.Sprintf("goroutine %s took another path at step %d (%s) and came back to the schedule at step %d (%s @%s n=%d)",
		g.name, mine[i]+1, r.detourV.Actual, mine[j]+1, op, site, n)
	r.detour, r.detourTo = nil, nil
	r.next[g.name] = j
	r.cursor = mine[j]
	r.moves++
	r.lastMove = realNow()
}

// take waits (mu held) until g's i-th step, st, has the turn, then grants
// it: see turn.
func (r *replayer) take(g *Goroutine, i int, op trace.Op, pass int) {
	mine := r.proj[g.name]
	st := r.s.Steps[mine[i]]
	r.waiting[g.name] = st
	if r.partnerOf >= 0 {
		r.cond.Broadcast() // the first access may wait for this one
	}
	r.waitTurn(mine[i])
	if j := r.coenabled(mine[i]); j >= 0 {
		// A race is two accesses that can run at the same time: both
		// must be at their gates together. Run one after the other, they
		// prove nothing when the second's goroutine got there only
		// because the first's went on (through synchronization the trace
		// does not record: I/O, a pipe, a network round trip).
		r.partnerOf = j
		for !r.free && !r.atGate(j) {
			r.cond.Wait()
		}
		r.partnerOf = -1
	}
	delete(r.waiting, g.name)
	if r.free {
		return
	}
	r.next[g.name] = i + 1
	if r.leak && mine[i] == r.s.Anomaly[len(r.s.Anomaly)-1] {
		// The stranded operation: its partner's select went elsewhere,
		// so it will not complete (leakProof checks that it did not).
		r.advance()
		return
	}
	r.grant(g.name, mine[i])
	if r.deadlock && r.isAnom[mine[i]] && op.IsAcquire() && i == len(mine)-1 && !(r.onceRun && g.name == r.relockG) {
		r.ask(g, mine[i])
		return
	}
	switch pass {
	case 0:
		r.advance()
	case 1:
		r.pending, r.pendingEmit, r.expect, r.pendingSince = g, true, op, realNow()
	default:
		r.pending, r.pendingEmit, r.pendingSince = g, false, realNow()
	}
}

// omit passes g's next step if it is op at site, not produced: see gateOmit.
func (r *replayer) omit(g *Goroutine, site int32, op trace.Op) {
	r.atGateNext(g)
	r.markUnscheduled(g)
	if r.free || r.freed[g.name] || r.detour == g {
		return
	}
	siteName := ""
	if site >= 0 {
		siteName = rec.tab.Name(trace.TabSite, rec.site(site).idx)
	}
	mine := r.proj[g.name]
	i := r.next[g.name]
	if i >= len(mine) {
		return
	}
	st := r.s.Steps[mine[i]]
	k := occKey{op, siteName}
	occ := r.occ[g.name]
	if occ == nil {
		occ = map[occKey]int{}
		r.occ[g.name] = occ
	}
	if st.Op != op || st.Site != siteName || st.N != occ[k]+1 || r.isAnom[mine[i]] {
		return // not expected here (or needed): turn decides on g's next event
	}
	occ[k]++ // later occurrences keep their numbers
	r.moves++
	r.waiting[g.name] = st
	r.waitTurn(mine[i])
	delete(r.waiting, g.name)
	if r.free {
		return
	}
	r.next[g.name] = i + 1
	r.advance()
}

// explored turns v, a divergence of goroutine v.Goroutine at step
// v.Step, into an exploration (verdict "explored", Changed set) when
// exploring is on and one of that goroutine's changed reads that is an
// event of the anomaly ran before it: the value it read is why it left
// the recorded path, so what the program does from there is what the
// anomaly's reversed read does to it.
func (r *replayer) explored(v Verdict) Verdict {
	if !r.explore || r.verdict != "" {
		return v
	}
	last := r.changedRead(v.Goroutine, v.Step)
	if last < 0 {
		return v
	}
	v.Verdict, v.Changed = "explored", last+1
	v.Message += fmt.Sprintf("; after its changed read at step %d (%s), the program runs free", last+1, r.s.Steps[last])
	return v
}

// changedRead is the index of goroutine g's last changed read that is an
// anomaly step, ran, and comes before step (1-based), or -1.
func (r *replayer) changedRead(g string, step int) int {
	last := -1
	for _, i := range r.changed[g] {
		// Only a read of the anomaly itself: another schedule's reversed
		// read is not this anomaly's doing (pingpong's race on Ball.Hits
		// diverged after its schedule moved the read of Table.ball, the
		// other race, and the panic that followed was that race's).
		if i < step-1 && i < r.cursor && r.isAnom[i] {
			last = i
		}
	}
	return last
}

// doneWithAnomaly reports whether goroutine g has no anomaly step at or
// after step index from.
func (r *replayer) doneWithAnomaly(g string, from int) bool {
	for _, i := range r.proj[g] {
		if i >= from && r.isAnom[i] {
			return false
		}
	}
	return true
}

// othersDone reports whether every anomaly step of goroutines other than g
// has run.
func (r *replayer) othersDone(g string) bool {
	others := false
	for _, i := range r.s.Anomaly {
		if r.s.Steps[i].G != g {
			if i >= r.cursor {
				return false
			}
			others = true
		}
	}
	return others
}

// markUnscheduled marks g freed (mu held) if the goroutines the schedule
// names no step of run free by now (freeFrom) and g is one, or if a lost
// signal's schedule has run (lostFree); it reports whether g is freed.
func (r *replayer) markUnscheduled(g *Goroutine) bool {
	if (r.lostFree || r.freeFrom >= 0 && r.cursor >= r.freeFrom && len(r.proj[g.name]) == 0) && !r.free && !r.freed[g.name] {
		r.freed[g.name] = true
	}
	return r.freed[g.name]
}

// release lets goroutine g run free and drops its remaining steps.
func (r *replayer) release(g string) {
	r.moves++
	r.freed[g] = true
	delete(r.waiting, g)
	r.lastMove = realNow()
	r.skipFreed()
	if r.cursor >= len(r.s.Steps) {
		r.decide(Verdict{Verdict: "reproduced", Step: len(r.s.Steps)})
		return
	}
	r.wakeTurn()
}

// holdAt is called (mu held) when r.alone reaches a gate of op: the hold
// ends before an operation that may block, so that what it waits for can
// come. Until then the goroutine, released after its part of the anomaly,
// runs alone, and what it does next comes before the schedule's next
// step, as it did when the machine was idle: getteract's second Retire,
// released after its changed check, decremented freely while the test's
// final read waited for its turn, and under load the read came first in
// some replays, so that the same schedule failed the test or passed.
func (r *replayer) holdAt(op trace.Op) {
	r.aloneGates++
	if r.aloneSpins() {
		// A spin waiting for another goroutine passes gates that do
		// not block: it would wait forever alone.
		r.endHold()
		return
	}
	if !mayBlock(op) {
		r.aloneSince = realNow()
		return
	}
	r.endHold()
}

// setAlone makes g run alone (mu held).
func (r *replayer) setAlone(g *Goroutine) {
	now := realNow()
	r.alone, r.aloneSince, r.aloneStart, r.aloneGates = g, now, now, 0
}

// aloneSpins reports whether r.alone has run alone long enough to be
// taken for a spin (mu held): pendingLong, and aloneSpin gates passed.
// Time alone was the bound before: on a loaded machine a goroutine whose
// thread got no CPU for 100 ms lost its hold a few gates after the
// verdict, and the others ran beside it. earlywake's loop, released
// after its stale Head, had not reached its select when the test's
// goroutine, free, sent the wake-up, which the select then took as often
// as the timer (random among ready cases): the replay, its repeat or its
// control passed or failed the test by the machine's load (the
// sched.go:24 av lost in CI). A spin passes gates quickly; a goroutine
// that waits or computes between gates is the watch's (pendingDone),
// with aloneLong as the bound of last resort.
func (r *replayer) aloneSpins() bool {
	d := realNow().Sub(r.aloneStart)
	return r.aloneGates >= aloneSpin && d >= pendingLong || d >= aloneLong
}

// aloneSpin is how many gates a goroutine running alone passes, at the
// least, before it is taken for a spin, and aloneLong how long it runs
// alone at most (aloneSpins).
const (
	aloneSpin = 1000
	aloneLong = 10 * pendingLong
)

// endHold ends r.alone (mu held): the schedule goes on, or after the
// verdict the next of r.first runs alone, or every goroutine runs free.
func (r *replayer) endHold() {
	if r.alone == nil {
		return
	}
	r.alone = nil
	r.moves++
	r.lastMove = realNow()
	if r.free {
		r.nextFirst()
		r.syncFree()
		for _, c := range r.turns {
			c.Broadcast()
		}
		r.idle.Broadcast()
		r.cond.Broadcast()
		return
	}
	r.wakeTurn()
}

// nextFirst makes the next goroutine of r.first that has not ended run
// alone (mu held, after the verdict).
func (r *replayer) nextFirst() {
	for len(r.first) > 0 && r.alone == nil {
		g := r.first[0]
		r.first = r.first[1:]
		if !r.gone[g.name] {
			r.setAlone(g)
		}
	}
}

// waitAlone makes goroutine g wait at its gate (mu held) while another
// one runs alone after the verdict.
func (r *replayer) waitAlone(g *Goroutine) {
	for r.free && r.alone != nil && r.alone != g {
		r.idle.Wait()
	}
}

// skipFreed moves the cursor past steps of released goroutines.
func (r *replayer) skipFreed() {
	for r.cursor < len(r.s.Steps) && r.freed[r.s.Steps[r.cursor].G] {
		r.cursor++
	}
}

// waitTurn waits (mu held) until step i has the turn or the schedule is
// over.
func (r *replayer) waitTurn(i int) {
	for (r.cursor != i || r.alone != nil) && !r.free {
		c := r.turns[i]
		if c == nil {
			c = newPark()
			r.turns[i] = c
		}
		c.Wait()
	}
	delete(r.turns, i)
}

// wakeTurn wakes the goroutines whose wait may be over: the one whose step
// has the turn, and those that wait for other conditions on r.cond.
func (r *replayer) wakeTurn() {
	if c := r.turns[r.cursor]; c != nil {
		c.Signal()
	}
	r.cond.Broadcast()
}

// advance passes the turn to the next step.
func (r *replayer) advance() {
	r.moves++
	done := r.cursor
	r.cursor++
	r.skipFreed()
	if r.isAnom[done] && r.cursor < len(r.s.Steps) {
		r.progress()
	}
	r.lastMove = realNow()
	if r.cursor == r.freeFrom {
		r.idle.Broadcast() // the unscheduled goroutines go free
	}
	if r.cursor >= len(r.s.Steps) {
		if r.lostSignal {
			r.lostFree = true
			r.idle.Broadcast() // those waiting for the schedule's end go free
		}
		if r.deadlock {
			return // proved by the deadlock that follows (deadlockVerdict)
		}
		r.decide(Verdict{Verdict: "reproduced", Step: len(r.s.Steps)})
		return
	}
	r.wakeTurn()
}

// progress writes a provisional verdict after an anomaly step: if the
// process then dies (a panic kills it before any verdict), the driver
// knows how far the anomaly got. Goroutine names the one goroutine owning
// every anomaly step still to come, if there is one: the others' part of
// the anomaly is done.
func (r *replayer) progress() {
	if r.verdict != "" {
		return // decided meanwhile: keep the verdict
	}
	owner := ""
	for _, i := range r.s.Anomaly {
		if i < r.cursor {
			continue
		}
		g := r.s.Steps[i].G
		if owner != "" && owner != g {
			owner = ""
			break
		}
		owner = g
	}
	if owner != "" && !r.othersDone(owner) {
		owner = ""
	}
	r.write(Verdict{Verdict: "running", Step: r.cursor + 1, Steps: len(r.s.Steps), Goroutine: owner,
		Message: fmt.Sprintf("the schedule was at step %d", r.cursor+1)})
}

// decide records the verdict (the first one counts) and frees everyone.
func (r *replayer) decide(v Verdict) {
	r.moves++
	if v.Verdict == "reproduced" && r.holdReproduced() {
		return
	}
	if r.verdict == "" && r.detour != nil {
		// Stuck or timed out on its way back: the divergence stands.
		r.detourV.Message += "; it did not come back to the schedule (" + v.Verdict + ": " + v.Message + ")"
		v = r.detourV
	}
	if r.verdict == "" && r.detoured != "" {
		switch v.Verdict {
		case "reproduced":
			v.Detour = r.detoured
		case "interrupted", "explored":
			// Proved by a failure, which the other path may have caused.
			v.Verdict = "diverged"
			v.Message += "; after " + r.detoured
		}
	}
	if r.verdict == "" {
		r.verdict = v.Verdict
		v.Steps = len(r.s.Steps)
		v.Fired = append([]int(nil), r.fired...)
		v.Silent = append([]int(nil), r.silent...)
		r.final = v
		r.write(v)
		if markEnd && v.Verdict == "reproduced" {
			fmt.Fprintln(os.Stdout, ScheduleEndMark)
		}
		if v.Verdict == "interrupted" || v.Verdict == "explored" {
			// Decided by how the program ends: in a process replaying a
			// list, by a failure of this test, not of the next ones.
			listDirty.Store(true)
		}
		if v.Verdict == "reproduced" || v.Verdict == "interrupted" || v.Verdict == "explored" {
			// The program goes on, and how it ends is the anomaly's
			// consequence. The anomaly's goroutines go on first, in
			// the order of their first events, each alone until it
			// may block (holdAt), as they would have right after their
			// steps; then every goroutine runs free. Released all at
			// once, they raced the goroutines that had got to their
			// gates meanwhile: getteract's second Retire, after its
			// changed check, and the test's final read, whose 100 ms
			// sleep had run out in real time while a loaded machine
			// replayed the schedule, so that the same schedule failed
			// the test or passed.
			byName := map[string]*Goroutine{}
			if rec != nil {
				for _, g := range rec.gmap {
					byName[g.name] = g
				}
			}
			for _, i := range r.s.Anomaly {
				g := byName[r.s.Steps[i].G]
				if g != nil && !r.gone[g.name] && r.alone == nil && !slices.Contains(r.first, g) {
					r.first = append(r.first, g)
				}
			}
		}
		if replayProcess && v.Verdict != "reproduced" && v.Verdict != "interrupted" && v.Verdict != "explored" {
			// A schedule that failed (deadlock, divergence) proves
			// nothing, and what the program does afterwards is not read:
			// only a reproduced anomaly's consequence is. Running the
			// rest of the test (its other subtests, the end-of-test
			// drain, up to a second) was most of a pruned replay's time
			// on conc's pool tests. An interrupted anomaly is decided by
			// how the program ends (the driver reads a failure as the
			// proof): exiting here would be that failure, whenever the
			// exit beat the test's own end. So is an exploration (the
			// program runs free after a changed read: explored).
			listDirty.Store(true) // the process takes no more of its list
			go exitPruned(v.Verdict)
		}
	}
	r.free = true
	if r.alone == nil {
		r.nextFirst()
	}
	r.syncFree()
	if r.endCh != nil {
		close(r.endCh)
		r.endCh = nil
	}
	for _, c := range r.turns {
		c.Broadcast()
	}
	r.idle.Broadcast()
	r.cond.Broadcast()
}

// write records v in the verdict file. The first write creates the file
// whole (a temporary file renamed into place). A replay writes again
// after each anomaly step (progress) and at its verdict: those overwrite
// it in place, with one write at offset 0 padded with spaces to the
// longest written so far (JSON ignores them), so that, as with the
// rename, the file holds one whole verdict whenever the process dies
// (a write of a page or less is not cut short), but no file is created
// and none deleted. On gobreaker's generated drivers, a temporary file
// and a replaced one per write were 3.6 files created and 2.6 deleted
// per replay, and on a loaded ext4 /tmp a creation cost 0.6 to 0.8 ms of
// CPU (the inode allocator skips over the inodes deleted in the last
// minute: recently_deleted and find_inode_bit were a tenth of the
// checker's samples, ext4_get_group_desc a tenth of the tests').
func (r *replayer) write(v Verdict) {
	if r.path == "" {
		return
	}
	// (A bubble's goroutine may come to a gate after the verdict, held
	// while the anomaly's goroutines run alone: later writes say so.)
	v.Bubble = v.Bubble || r.bubble
	b, _ := json.Marshal(v)
	b = append(b, '\n')
	if r.written > 0 && max(len(b), r.written) <= verdictInPlace {
		if len(b) < r.written {
			b = append(b, bytes.Repeat([]byte{' '}, r.written-len(b))...)
		}
		if f, err := os.OpenFile(r.path, os.O_WRONLY, 0); err == nil {
			_, err = f.WriteAt(b, 0)
			if f.Close() == nil && err == nil {
				r.written = len(b)
				return
			}
		}
	}
	tmp := r.path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err == nil && os.Rename(tmp, r.path) == nil {
		r.written = len(b)
	}
}

// verdictInPlace bounds a verdict overwritten in place (write): a write
// that crosses a page may stop at a page boundary when the process is
// killed, and leave the file half old, half new.
const verdictInPlace = 4096

// watch completes plain accesses whose goroutine went on into
// uninstrumented code, and decides when nothing can move any more
// (quiescent, stuck.go): a deadlock before the verdict, a hang of the
// program after it. The stall bound (a wall clock) is left only for
// goroutines busy outside recorded operations. It stops when the replay
// is replaced or the trace finished.
func (r *replayer) watch() {
	defer close(r.watchDone)
	defer func() {
		// No watcher moves the clock any more (vclock.go).
		mu.Lock()
		if rp == nil || rp == r {
			runClock()
		}
		mu.Unlock()
	}()
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	var (
		buf       = make([]byte, 64<<10)
		lastMoves = ^uint64(0)
		idleSince time.Time
		lastDump  time.Time
		dumpCost  time.Duration
	)
	// dump takes a goroutine dump with mu released (it stops the world)
	// and takes mu again; false, mu released, when the replay is gone.
	dump := func() ([]gstate, bool) {
		mu.Unlock()
		var gs []gstate
		gs, buf = dumpGoroutines(buf)
		mu.Lock()
		if rp != r || rec == nil {
			mu.Unlock()
			return nil, false
		}
		return gs, true
	}
	for range t.C {
		mu.Lock()
		if rp != r || rec == nil || r.unwatched {
			mu.Unlock()
			return
		}
		now := realNow()
		if !r.free && r.pending != nil && !r.pendingEmit && now.Sub(r.pendingSince) >= pendingGrace && now.Sub(r.pendingChecked) >= pendingGrace {
			// Past the grace, the turn passes on only if the goroutine
			// surely made its access: on a loaded machine, 10 ms after
			// R or W returned it may not have run again yet, and the next
			// step's access would come first (TestSubjects lost
			// violations under load, each time others).
			g := r.pending
			gs, ok := dump()
			if !ok {
				return
			}
			now = realNow()
			if !r.free && r.pending == g && !r.pendingEmit {
				if pendingDone(gs, g.goid, now.Sub(r.pendingSince)) {
					r.pending = nil
					r.advance()
				} else {
					r.pendingChecked = now
				}
			}
		}
		if r.alone != nil && r.aloneSpins() {
			r.endHold()
		}
		if r.alone != nil && now.Sub(r.aloneSince) >= pendingGrace {
			// The held goroutine has not reached a gate for a while: it
			// may wait outside recorded operations (I/O, a runtime
			// lock), sleep, or compute; the hold ends unless it is
			// runnable or briefly running (pendingDone).
			g, since := r.alone, r.aloneSince
			gs, ok := dump()
			if !ok {
				return
			}
			if r.alone == g && r.aloneSince == since && pendingDone(gs, g.goid, realNow().Sub(since)) {
				r.endHold()
			}
		}
		if why := r.freeOver(); why != "" {
			// Ended as a hang is, with the trace finished, and as at
			// the driver's time bound: the test gave no verdict.
			r.final.FreeStop = why
			r.write(r.final)
			mu.Unlock()
			endFreeRun(why)
			return
		}
		moves, fires := r.moves+freeMoves.Load(), wakes()
		if moves != lastMoves {
			lastMoves, idleSince = moves, now
			r.quietSince = time.Time{}
			if r.thawed {
				r.thawed = false
				holdClock()
			}
			mu.Unlock()
			continue
		}
		if !r.thawed && clockHeld() && (now.Sub(idleSince) >= holdQuiet || heldReads.Load() >= pollReads) {
			// Nothing moved for a while with the clock held, or the
			// program read it pollReads times since it last moved: a
			// goroutine may poll it, or wait for a timer or I/O outside
			// it. It runs until the next move (vclock.go).
			r.thawed = true
			runClock()
		}
		if !r.free && now.Sub(r.lastMove) >= r.stall && r.cursor >= len(r.s.Steps) && r.deadlock {
			r.decide(Verdict{Verdict: "diverged", Step: len(r.s.Steps), Waiting: r.waiters(),
				Message: fmt.Sprintf("every step had its turn, but no deadlock within %v: something still runs outside recorded operations", r.stall)})
			mu.Unlock()
			continue
		}
		if !r.free && now.Sub(r.lastMove) >= r.stall && r.cursor >= len(r.s.Steps) && r.oc.await {
			r.oc.await = false
			r.decide(Verdict{Verdict: "diverged", Step: len(r.s.Steps), Waiting: r.waiters(),
				Message: fmt.Sprintf("every step had its turn, but the operations of steps %s did not complete within %v", r.unrecorded(), r.stall)})
			mu.Unlock()
			continue
		}
		if !r.free && now.Sub(r.lastMove) >= r.stall && r.cursor < len(r.s.Steps) { // (past the end: holdReproduced)
			v := Verdict{Verdict: "deadlock", Step: r.cursor + 1,
				Message: fmt.Sprintf("nothing moved for %v; step %d (%s) never came", r.stall, r.cursor+1, r.s.Steps[r.cursor])}
			r.notCoenabled(&v, fmt.Sprintf("nothing moved for %v", r.stall))
			if len(r.lastQ.busy) > 0 {
				v.Message += "; running outside recorded operations: " + strings.Join(r.lastQ.busy, "; ")
			}
			v.Waiting = r.waiters()
			r.decide(v)
			mu.Unlock()
			continue
		}
		// Dump when idle, less often the longer nothing moves, and at
		// most a fifth of the time: a dump stops the world and formats
		// every goroutine's stack. With a thousand goroutines (ants' pool
		// tests) it costs milliseconds, and one after every pause of a
		// millisecond was most of a replay's CPU (pprof). The first dump
		// after a pause still comes at a millisecond unless one was just
		// taken: deadlocks are judged as fast as before (conc: 120 ms).
		idle := now.Sub(idleSince)
		if idle < time.Millisecond || now.Sub(lastDump) < max(idle/4, 4*dumpCost) {
			mu.Unlock()
			continue
		}
		mu.Unlock()
		var gs []gstate
		t0 := realNow()
		gs, buf = dumpGoroutines(buf)
		lastDump = realNow()
		dumpCost = lastDump.Sub(t0)
		mu.Lock()
		if rp != r || rec == nil {
			mu.Unlock()
			return
		}
		var hang string
		// A timer that fired in real time since the dump may have woken
		// a goroutine it shows waiting: look again. (Fires are not moves:
		// a fast ticker would keep the process from ever looking idle.)
		// A tick dropped into a full channel woke nothing: kelindar/event
		// runs a 500 µs ticker per event type, whose goroutines waited at
		// gates while their real-time ticks kept this from ever deciding
		// (each deadlock then took the stall bound, and 4x it again).
		if r.moves+freeMoves.Load() == moves && wakes() == fires {
			hang = r.quiescent(gs, lastDump)
		}
		mu.Unlock()
		if hang != "" {
			// The program can never finish: end the process now rather
			// than at the driver's timeout, with the trace finished.
			fmt.Fprintf(os.Stderr, "pecanvet: replay: the test hangs after the schedule: %s\n", hang)
			finish("hang after replay")
			os.Exit(2)
		}
	}
}

// pendingLong is how long a goroutine holding the turn for a plain access
// may run before its access is taken for done (pendingDone).
const pendingLong = 100 * time.Millisecond

// pendingDone reports whether the goroutine goid, whose plain access has
// held the turn for held, has surely made it: it waits (it went on into a
// wait outside recorded operations, or into rt's lock at its next gate),
// it is in a system call or asleep, it is gone, or it has been running for
// pendingLong (it went on into a computation). Runnable or preempted, it
// may not have run the access yet.
func pendingDone(gs []gstate, goid int64, held time.Duration) bool {
	for _, g := range gs {
		if g.id != goid {
			continue
		}
		switch g.state {
		case "runnable", "preempted":
			return false
		case "running":
			return held >= pendingLong
		}
		return true
	}
	return true
}

// waiters lists the goroutines waiting at gates, for a verdict.
func (r *replayer) waiters() []string {
	var out []string
	for g, st := range r.waiting {
		out = append(out, g+" waits at "+st.String())
	}
	sortStrings(out)
	return out
}

// clockMayMove reports whether, with nothing busy, the quiescent process
// would move the virtual clock to its earliest event (mu held): while the
// schedule runs, with waits outside recorded operations only if timers of
// the clock could end them, and not endlessly at one step (a ticker). A
// goroutine parked in a select of instrumented code whose every case only
// another goroutine can ready (SelectGate notes it, markHardSelects finds
// it in the dump) is no such wait.
//
// After the verdict it moves only when every goroutine waits in a way
// nothing but another goroutine or the clock can end (no soft wait: a
// timer or I/O outside the clock might come first in real time, and what
// the program does then is the anomaly's effect), up to maxFreeFires
// fires. The program's end is then what a run whose goroutines all
// waited that long would show, and a test that sleeps on after the
// schedule no longer waits it out in real time: go-promise's
// TestWhenAnyTrue sleeps about 6 s after most of its schedules, and its
// 23 replays took 66 s.
func (r *replayer) clockMayMove(q *quiescence) bool {
	if r.free {
		return earliest() != nil && q.timerSoft == 0 && r.freeFires < maxFreeFires
	}
	fires := r.clockFires
	if r.cursor != r.clockCursor {
		fires = 0
	}
	return earliest() != nil && (q.timerSoft == 0 || clock.timers > 0) && fires < 3*len(clock.queue)+8
}

// maxFreeFires bounds the clock's moves after a verdict: a program that
// polls for ever after it (a sleep in a loop beside a goroutine blocked
// for good) would otherwise spin on the virtual clock, a dump a move,
// until the replay's time bound; past it the clock runs in real time.
const maxFreeFires = 4096

// quiescent acts on a dump taken while nothing moved (mu held): it passes
// a plain access's turn on, wakes a sleeper, or decides. It returns the
// description of a hang after the verdict if the process should end.
func (r *replayer) quiescent(gs []gstate, now time.Time) string {
	var names map[int64]string
	if rec != nil {
		names = rec.goroutineNames()
	}
	var q quiescence
	stuckG := ""
	if r.cursor < len(r.s.Steps) {
		stuckG = r.s.Steps[r.cursor].G
	}
	outside, unstarted := false, false
	var drains []string
	markHardSelects(gs)
	for _, g := range gs {
		switch g.class {
		case gBusy:
			q.busy = append(q.busy, q.describe(names, g))
		case gDrain:
			drains = append(drains, q.describe(names, g))
		case gRecorded, gHard:
			q.hard = append(q.hard, q.describe(names, g))
		case gSoft:
			q.soft = append(q.soft, q.describe(names, g))
			if !g.hardSel && !g.signal {
				q.timerSoft++
			}
			if stuckG != "" && names[g.id] == stuckG {
				outside = true
			}
		}
	}
	// The test goroutine in Drain waits for another goroutine's step, as
	// at a gate, but gives up at its bound and returns: busy, except that
	// the virtual clock may move for it. cache2go's TestDataLoader: the
	// schedule's next step was a 500 ms time.AfterFunc callback's, the
	// clock stood still while the test slept in Drain, and each of ~20
	// replays waited the timer out in real time.
	if len(drains) > 0 && !r.clockMayMove(&q) {
		q.busy = append(q.busy, drains...)
	}
	q.sort()
	r.lastQ = q
	if len(q.busy) > 0 {
		r.quietSince = time.Time{}
		return ""
	}
	// Nothing runs. A goroutine whose plain access has the turn went on
	// into a wait: its access is done.
	if !r.free && r.pending != nil && !r.pendingEmit {
		r.pending = nil
		r.advance()
		return ""
	}
	// Virtual time (vclock.go): the clock moves to the earliest event
	// and fires it — while the schedule runs, and only when nothing but
	// the clock could end a wait. A goroutine waiting on a channel
	// outside recorded operations may wait for a timer of the clock (a
	// ticker's purger) or for one the clock does not cover, or for I/O,
	// which might come first in real time: with only sleeps pending, the
	// sleeper does not wake ahead of it (a test that sleeps to let a
	// background goroutine act, pond's "sleep 50 ms, then the idle worker
	// is gone", would fail for that alone, which replay would credit to
	// the anomaly). With timers of the clock pending, such waits are
	// taken for waits on them. After the verdict, what the program does
	// is its consequence: real time.
	//
	// A ticker fires forever: fired again and again with the schedule
	// standing still (its goroutine waits at a gate, or it ticks into a
	// full channel), it cannot make the missing step come, and the
	// decision below is taken as if it were not pending.
	if e := earliest(); e != nil {
		if r.cursor != r.clockCursor {
			r.clockCursor, r.clockFires = r.cursor, 0
		}
		if r.clockMayMove(&q) {
			// Ticks dropped into full channels wake nothing: the clock
			// moves on to the earliest event that may wake something
			// (nextWaking), firing them on the way, and fires on until
			// one wakes something or the ticker bound is reached (then
			// decide below), rather than one per dump. Only such moves
			// count toward the bound: a ticker whose ticks are dropped
			// spent it before a later timer's turn came.
			for {
				if fullTick(e) {
					if e = nextWaking(); e == nil {
						break // only dropped ticks are left
					}
				}
				r.clockFires++
				if r.free {
					r.freeFires++
				}
				w := wakes()
				advanceTo(e.due)
				if wakes() != w {
					r.moves++
					if e.sleep && clockHeld() {
						r.poller = e.name // its next sleep may end at once (sleepAtOnce)
					}
					return ""
				}
				if e = earliest(); e == nil || !r.clockMayMove(&q) {
					break
				}
			}
		}
		if clock.timers < len(clock.queue) || r.free && !onlyFullTickers() {
			// A sleeper, or after the verdict any timer: it fires in
			// real time, and what it wakes may end the wait. A hang
			// is the program's only when nothing is left to fire but
			// tickers into full channels. Real time: a clock the
			// replay holds runs until the next move (vclock.go), as
			// it would after holdQuiet, without waiting that out.
			if !r.thawed && clockHeld() {
				r.thawed = true
				runClock()
			}
			return ""
		}
	}
	if !r.free && r.cursor < len(r.s.Steps) {
		// A goroutine not seen yet may still be started by uninstrumented
		// code: a root (a finalizer, a server), or one forked already but
		// started by a timer (a time.AfterFunc callback). One whose fork
		// has not come cannot start.
		if g := r.s.Steps[r.cursor].G; !r.seen(g) && (!strings.Contains(g, ".") || forkedNotBegun(g)) {
			q.soft = append(q.soft, "step "+strconv.Itoa(r.cursor+1)+"'s goroutine "+g+" has not started (started outside instrumented code)")
			outside, unstarted = true, true
		}
	}
	quiet := r.quiet
	if r.free {
		// After the verdict every goroutine runs free on the real clock:
		// a wait that I/O or a timer outside the clock may end is a hang
		// only once it has lasted freeQuiet.
		quiet = max(quiet, freeQuiet)
	}
	if len(q.soft) > 0 {
		if r.quietSince.IsZero() {
			r.quietSince = now
		}
		if now.Sub(r.quietSince) < quiet {
			return ""
		}
	}
	blocked := append(q.hard, q.soft...)
	why := "every goroutine waits"
	if len(q.soft) > 0 {
		why = fmt.Sprintf("every goroutine waits (for %v; only a timer or I/O could still wake %s)", quiet, strings.Join(q.soft, "; "))
	}
	if r.free {
		if !replayProcess || r.finishing {
			return ""
		}
		v := r.final
		v.Hang = why + ": " + strings.Join(blocked, "; ")
		r.write(v)
		if r.hung {
			r.final.Hang = v.Hang // the proof's verdict (leakProof) says how it hangs
		}
		return v.Hang
	}
	if r.finishing && r.lostFree {
		// The test ended after a lost signal's schedule ran (a timer let
		// it give up on the waiter): the waiter still blocked in its Wait
		// is the lost signal's proof, a goroutine left waiting for good.
		r.decide(r.deadlockVerdict(gs, names, blocked, why+" after the test ended"))
		return ""
	}
	if r.finishing {
		r.decide(r.endVerdict())
		return ""
	}
	if (r.cursor >= len(r.s.Steps) || r.relockHit != "") && r.deadlock {
		// (A double lock's reader blocked in a lock it holds may leave
		// steps that need that lock: the stale read's write never runs.)
		r.decide(r.deadlockVerdict(gs, names, blocked, why))
		return ""
	}
	if r.cursor >= len(r.s.Steps) {
		// Every step had its turn, and "reproduced" waits for the
		// objects of anomaly steps whose events were never recorded
		// (holdReproduced): their operations did not complete (one that
		// panicked, say, and was recovered). With nothing left to move,
		// they never will: without their objects the anomaly is not
		// proved.
		if r.oc.await {
			r.oc.await = false
			v := Verdict{Verdict: "diverged", Step: len(r.s.Steps), Waiting: append(r.waiters(), blocked...),
				Message: fmt.Sprintf("every step had its turn, but the operations of steps %s never completed, and %s", r.unrecorded(), why)}
			r.decide(v)
		}
		return ""
	}
	if g := r.s.Steps[r.cursor].G; outside && startedOutside(g) && !r.inAnomaly(g) {
		// A goroutine begun before the recording (rt.preIDs), or started
		// by uninstrumented code during it (a root after g1: net/http's
		// connection goroutine under an httptest.Server), waits outside
		// recorded operations, or has not come yet, and has no part in
		// the anomaly: what wakes it may be a timer made before the
		// replay, on the real clock (ants' default pool's ticker, its
		// tick inside the recorded test by chance), or I/O that a step
		// the schedule puts after it sets off (the client's request for
		// the handler of chi's mux tests). It runs free from here, its
		// steps dropped, as the steps of a goroutine past its part of the
		// anomaly are: the schedule's other steps still come in their
		// order, and one whose path needed it diverges or waits, as any
		// replay's would.
		r.release(g)
		return ""
	}
	v := Verdict{Verdict: "deadlock", Step: r.cursor + 1, Waiting: append(r.waiters(), blocked...),
		Message: fmt.Sprintf("%s; step %d (%s) cannot come", why, r.cursor+1, r.s.Steps[r.cursor]), Outside: outside}
	r.notCoenabled(&v, why)
	if v.Step != r.cursor+1 {
		v.Outside = false // decided at another step than the stuck one
	}
	if v.Outside && unstarted && rec != nil {
		v.Unstarted = true
		for n := 1; n <= rec.roots; n++ {
			v.Roots = append(v.Roots, "g"+strconv.Itoa(n))
		}
	}
	if r.pending != nil {
		v.Outside, v.Unstarted, v.Roots = false, false, nil
		v.Goroutine = r.pending.name
		v.Message = fmt.Sprintf("goroutine %s blocks in step %d (%s) and %s", r.pending.name, r.cursor+1, r.s.Steps[r.cursor], why)
	}
	r.decide(v)
	return ""
}

// startedOutside reports whether goroutine name g is one that
// uninstrumented code started: a PreRoot's, or a root's other than g1
// (the first, the test's process's own).
func startedOutside(g string) bool {
	if trace.IsPreRoot(g) {
		return true
	}
	return !strings.Contains(g, ".") && strings.HasPrefix(g, "g") && g != "g1"
}

// inAnomaly reports whether goroutine g, or one it started, has an
// anomaly step.
func (r *replayer) inAnomaly(g string) bool {
	for _, i := range r.s.Anomaly {
		if h := r.s.Steps[i].G; h == g || strings.HasPrefix(h, g+".") {
			return true
		}
	}
	return false
}

// seen reports whether goroutine g ever reached a gate.
func (r *replayer) seen(g string) bool {
	_, ok := r.occ[g]
	return ok || r.gone[g]
}

// ended is called (with mu held) when the process finishes its trace: it
// gives the goroutines still owing steps up to endGrace to take them (the
// test may end while, say, a goroutine's end is still to come), then a
// schedule not run to its end gets the verdict "ended" — at once if
// nothing can move any more (watch).
func (r *replayer) ended(reason string) {
	if r.leak && r.verdict == "reproduced" && !r.leakChecked {
		r.leakChecked = true
		r.leakProof(reason)
	}
	if r.verdict != "" {
		return
	}
	r.finishing, r.endReason = true, reason
	r.moves++
	ch := make(chan struct{})
	r.endCh = ch
	t := time.NewTimer(endGrace)
	mu.Unlock()
	select {
	case <-ch:
	case <-t.C:
	}
	t.Stop()
	mu.Lock()
	if r.verdict != "" {
		if r.leak && r.verdict == "reproduced" && !r.leakChecked {
			// The stranded step came after the test's end (an observed
			// leak's goroutine, held at its gate while the test ended).
			r.leakChecked = true
			r.leakProof(reason)
		}
		return
	}
	r.decide(r.endVerdict())
}

func (r *replayer) endVerdict() Verdict {
	msg := "the program ended before the schedule did"
	if r.endReason != "" {
		msg += " (" + r.endReason + ")"
	}
	st := ""
	if r.cursor < len(r.s.Steps) {
		st = r.s.Steps[r.cursor].Key()
	}
	return Verdict{Verdict: "ended", Step: r.cursor + 1, Expected: st, Message: msg}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// forkedNotBegun reports (mu held) whether goroutine g was forked (rt.Go)
// and has not begun.
func forkedNotBegun(g string) bool {
	if rec == nil {
		return false
	}
	for _, k := range rec.kids {
		if k != nil && k.name == g && k.goid == 0 {
			return true
		}
	}
	return false
}

// coenabled returns the step index of the race's second access when step
// k is its first, with the second right after it and another goroutine's;
// else -1.
func (r *replayer) coenabled(k int) int {
	a := r.s.Anomaly
	if len(a) != 2 || a[0] != k || a[1] != k+1 || !strings.HasPrefix(r.s.Pattern, "race/") ||
		r.s.Steps[a[1]].G == r.s.Steps[k].G || r.freed[r.s.Steps[a[1]].G] {
		return -1
	}
	return a[1]
}

// notCoenabled rewrites deadlock verdict v, decided for why, when the
// race's first access was waiting for its second (coenabled).
func (r *replayer) notCoenabled(v *Verdict, why string) {
	j := r.partnerOf
	if j < 0 {
		return
	}
	v.Step = j + 1
	v.Message = fmt.Sprintf("%s; the race's second access, step %d (%s), never came while the first, step %d (%s), waited at its turn: they are not enabled together",
		why, j+1, r.s.Steps[j], r.cursor+1, r.s.Steps[r.cursor])
}

// atGate reports whether step j's goroutine waits at step j's gate.
func (r *replayer) atGate(j int) bool {
	st := r.s.Steps[j]
	w, ok := r.waiting[st.G]
	return ok && w.Key() == st.Key()
}

// SelCase is one communication case of a select statement, for
// SelectGate: its site, whether it sends, and its channel's capacity.
type SelCase struct {
	Site int32
	Send bool
	Cap  int
	Ch   any // the case's channel (a receive case's: the blocked select a recording notes, observed.go)
	// Default marks no case but the select's default clause (Site -1, no
	// channel): the select does not block (see parkPartner).
	Default bool
}

// preSelect is SelectGate's turn (mu held). A select records the case
// that fired after the fact (Sent, Received: the first statement of the
// case), so without a gate before it a select runs whenever its goroutine
// gets there: an unbuffered send waits there for its receive, a later
// step, which cannot come while the schedule waits for the send's own
// step (deadlock), and a race of the select's operation is never enabled
// together with its partner. So when g's next step is one of the select's
// cases, the turn is taken here, as for a plain operation (an unbuffered
// send passes it at once, the others when recorded), and the case's own
// gate only checks that the select performed that case (afterSelect).
// When it is none of them (a default, or another path), the select runs
// as before and its case's gate decides.
func (r *replayer) preSelect(g *Goroutine, cases []SelCase) {
	r.moves++
	r.atGateNext(g)
	r.markUnscheduled(g)
	if r.free || r.freed[g.name] {
		r.waitAlone(g)
		if r.alone == g {
			r.endHold() // a select may block
		}
		return
	}
	mine := r.proj[g.name]
	i := r.next[g.name]
	if i >= len(mine) || r.detour == g {
		return // a detour's select: its case's gate decides (turn)
	}
	st := r.s.Steps[mine[i]]
	occ := r.occ[g.name]
	if occ == nil {
		occ = map[occKey]int{}
		r.occ[g.name] = occ
	}
	if r.leak && !r.stolen && !r.observed && mine[i] == r.s.Anomaly[0] {
		r.leakSelect(g, mine[i], st, cases, occ)
		return
	}
	for _, c := range cases {
		op, pass := trace.Recv, 1
		if c.Send {
			op = trace.Send
			if c.Cap == 0 {
				pass = 0
			}
		}
		if st.Op != op || c.Site < 0 {
			continue
		}
		siteName := rec.tab.Name(trace.TabSite, rec.site(c.Site).idx)
		k := occKey{op, siteName}
		if st.Site != siteName || st.N != occ[k]+1 {
			continue
		}
		r.moves++
		occ[k]++
		g.preSel = mine[i] + 1
		r.take(g, i, op, pass)
		if pass == 0 && hasDefault(cases) {
			r.parkPartner(g, mine[i])
		}
		if op == trace.Recv {
			if p := chanOfAny(c.Ch); p != nil {
				r.awaitTimer(g, p)
			}
		}
		return
	}
}

// hasDefault reports whether a select's cases include its default.
func hasDefault(cases []SelCase) bool {
	for _, c := range cases {
		if c.Default {
			return true
		}
	}
	return false
}

// parkPartner waits (mu held, released while it waits) after the turn
// of step k, a send on an unbuffered channel by a select with a default,
// passed on at once, until the goroutine of step k+1, the receive that
// takes it, is parked in the runtime on its receive. The recording wrote
// the send first because its receiver was already blocked (a passive
// receive is written when it next runs), and a non-blocking send finds
// the receiver only if it waits in the channel's queue; but the replay
// holds the receiver at its gate until its turn, k+1, so the send took
// the default and the replay diverged ("the select of step k … did …"):
// viney-shih/goroutines' Pool.schedule hands a task to an idle worker so,
// and every replay of its TestPoolSuite diverged at that hand-off, before
// the lost wakeup of its Release it was predicting. A goroutine's state
// is learnt from a dump (anyParked); the wait is bounded, after which the
// select runs as before (and may still diverge, a pruned prediction).
func (r *replayer) parkPartner(g *Goroutine, k int) {
	j := k + 1
	if j >= len(r.s.Steps) || r.cursor != j {
		return
	}
	st, pt := r.s.Steps[k], r.s.Steps[j]
	if pt.G == g.name || pt.Op != trace.Recv || pt.Obj != st.Obj || rec == nil {
		return
	}
	h := rec.goroutineNamed(pt.G)
	if h == nil || h.goid == 0 {
		return
	}
	pos := slices.Index(r.proj[h.name], j)
	if pos < 0 {
		return
	}
	deadline := realNow().Add(parkWait)
	for !r.free && r.cursor == j && realNow().Before(deadline) {
		// At its gate the receiver waits on a Cond too: it must have
		// passed the gate of step j (take moved its next step on) to be
		// parked on the channel.
		left := r.next[h.name] > pos
		mu.Unlock()
		parked := left && anyParked(h.goid)
		if !parked {
			time.Sleep(20 * time.Microsecond)
		}
		mu.Lock()
		if parked {
			return
		}
	}
}

// parkWait bounds parkPartner's wait.
const parkWait = 100 * time.Millisecond

// anyParked reports whether goroutine id is blocked in a select or a
// channel receive (the header of its entry in a dump).
func anyParked(id int64) bool {
	parked := false
	eachHeader(func(gid int64, state string) bool {
		if gid != id {
			return false
		}
		parked = strings.HasPrefix(state, "select") || strings.HasPrefix(state, "chan receive")
		return true
	})
	return parked
}

// afterSelect is the gate of the case a select performed after
// preSelect took the turn for one of its cases (mu held): the same case
// goes on (recorded completes its turn); another one is a divergence. A
// select whose send case panicked on a closed channel reaches no case:
// the next gate is a deferred call's as the panic unwinds (not recovered
// there, Recovered does not see it). Then its send, noted by
// SelectGate, is recorded as the panicking send it is, and afterSelect
// returns true: the gate goes on as any other.
func (r *replayer) afterSelect(g *Goroutine, site int32, op trace.Op) bool {
	i := g.preSel - 1
	g.preSel = 0
	if r.free || r.freed[g.name] {
		return false
	}
	siteName := ""
	if site >= 0 {
		siteName = rec.tab.Name(trace.TabSite, rec.site(site).idx)
	}
	st := r.s.Steps[i]
	if st.Op == op && st.Site == siteName {
		return false
	}
	if s := g.selSend; st.Op == trace.Send && s.ok && panicking() {
		g.selSend = selSend{}
		recordSyncLocked(s.ch, classChan, s.site, trace.Send, int64(s.cap), trace.FlagClosed)
		return true
	}
	r.decide(r.explored(Verdict{Verdict: "diverged", Step: i + 1, Goroutine: g.name, Expected: st.Key(),
		Actual:  trace.Step{G: g.name, Op: op, Site: siteName}.Key(),
		Message: fmt.Sprintf("goroutine %s: the select of step %d (%s) did %s @%s", g.name, i+1, st, op, siteName)}))
	return false
}

// panicking reports whether the calling goroutine is running deferred
// calls of a panic: its stack shows the runtime's panic frame.
func panicking() bool {
	buf := make([]byte, 16<<10)
	buf = buf[:runtime.Stack(buf, false)]
	return bytes.Contains(buf, []byte("\npanic("))
}

// expects reports (mu held) whether g's next step is op at site, its next
// occurrence there: knownParts emits a copy's events past its bound only
// as long as the schedule has them.
func (r *replayer) expects(g *Goroutine, site int32, op trace.Op) bool {
	mine := r.proj[g.name]
	i := r.next[g.name]
	if i >= len(mine) || site < 0 {
		return false
	}
	st := r.s.Steps[mine[i]]
	siteName := rec.tab.Name(trace.TabSite, rec.site(site).idx)
	return st.Op == op && st.Site == siteName && st.N == r.occ[g.name][occKey{op, siteName}]+1
}

// ExitPruned is the exit status of a replay process that ended right
// after a verdict other than "reproduced" (decide).
const ExitPruned = 5

// exitPruned ends a replay process whose schedule failed: its trace is
// finished (so that it is readable, as after any other end) and the
// process exits with ExitPruned.
//
// The held events are written at once, not given finish's grace to
// arrive: a failed schedule usually leaves goroutines stuck at gates or
// in a lock, so what the held events wait for never comes, and the grace
// (100 ms) ran out on every pruned replay — about 40% of a deadlocked
// replay's wall time on ratelimit, where 386 of 518 replays deadlocked.
// Nothing reads a pruned replay's trace for a verdict (the verdict file
// is written before, in decide); it stays readable.
func exitPruned(verdict string) {
	finishWithin("replay "+verdict, 0)
	os.Exit(ExitPruned)
}
