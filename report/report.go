// Package report words pecanvet's findings: a one-clause message, and the
// steps of the replayed schedule to show beside it.
//
// Every output takes its text from here: go vet's diagnostics
// (passes/pecan, and through go vet the language server), SARIF
// (internal/sarif), golangci-lint's issues (golangci) and `pecanvet check`
// (cmd/pecanvet). A message starts with "KIND on OBJECTS: ", or
// "interleaving without effect: KIND on OBJECTS: " for a finding shown
// only on request (check.Finding.WithoutEffect).
//
// It is the last stage of the pipeline: it reads check's findings, and
// nothing that check or an earlier stage holds may import it.
package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/replay"
)

// Site is where a finding is reported: its first event's site, except for
// a two-event pattern matched in either order (a race), which is reported
// at the earlier of its two sites in the source, so that the position does
// not depend on which order replay proved. It is the zero Site if the event
// has no site.
func Site(f check.Finding) trace.Site {
	s, _ := trace.ParseSite(f.Anomaly.Sites[at(f)])
	return s
}

// at is the index of the event a finding is reported at (see Site).
func at(f check.Finding) int {
	s := f.Anomaly.Sites
	if f.Anomaly.Pattern.Lock && len(s) == 4 {
		return 2 // a lock-order inversion: the first goroutine's waiting acquisition
	}
	if f.Anomaly.Pattern.Cond && len(s) == 2 {
		return 1 // a lost signal: the Wait
	}
	if f.Anomaly.Pattern.RWWriter() && len(s) == 3 {
		return 2 // a recursive read lock: the second read lock
	}
	if f.Anomaly.Pattern.OnceRun() && len(s) == 3 {
		return 2 // a deadlock through a Once: the call of Do made holding the lock
	}
	if f.Anomaly.Pattern.Leak && len(s) == 2 {
		return 1 // a leak: the stranded operation
	}
	if f.Anomaly.Pattern.WG && len(s) == 2 {
		return 1 // an Add after Wait: the Add, which is to move
	}
	if f.Anomaly.Pattern.Relock && len(s) == 2 {
		return f.Anomaly.Pattern.RelockRead() // a double lock: the read whose branch locks again
	}
	if f.Anomaly.Pattern.Adjacent && len(s) == 2 {
		a, errA := trace.ParseSite(s[0])
		b, errB := trace.ParseSite(s[1])
		if errA == nil && errB == nil && b.Less(a) {
			return 1
		}
	}
	return 0
}

// Title names a finding's kind and objects: "atomicity violation on
// Account.balance".
func Title(f check.Finding) string {
	if p := f.Anomaly.Pattern; p.Kind == "deadlock" && p.Observed {
		return "hang on " + objects(f) // an observed hang (check/observedhang.go), no inversion
	}
	if f.Anomaly.Pattern.ID() == "race/close-close" {
		// Two closes synchronize: no data race (the race detector
		// reports none), but the second panics (check's closeClose).
		return "double close of " + objects(f)
	}
	return pattern.KindName(f.Anomaly.Pattern.Kind) + " on " + objects(f)
}

// testT is how the recorder names a test's *testing.T (or B, F, TB): its
// methods read it and the end of its test writes it.
const testT = "testing.T"

// objects names a finding's objects, a test's T as "the test's T".
func objects(f check.Finding) string {
	names := f.ObjectNames()
	for k, o := range names {
		if o == testT {
			names[k] = "the test's T"
		}
	}
	return strings.Join(names, ", ")
}

// testEnd reports whether a finding's two events are a use of a test's T
// and the end of its test, and which of them is the end.
func testEnd(f check.Finding) (end int, ok bool) {
	if len(f.Anomaly.Events) != 2 || len(f.ObjectNames()) != 1 || f.ObjectNames()[0] != testT {
		return 0, false
	}
	evs := events(f)
	switch {
	case evs[0].op == "write" && evs[1].op == "read":
		return 0, true
	case evs[1].op == "write" && evs[0].op == "read":
		return 1, true
	}
	return 0, false
}

// Detailed is Title with the pattern: "atomicity violation (av/RWW) on
// Account.balance".
func Detailed(f check.Finding) string {
	return fmt.Sprintf("%s (%s) on %s", lockKind(f), f.Anomaly.Pattern.ID(), objects(f))
}

// Message is the diagnostic of a reproduced finding, one clause: what can
// happen, then the evidence, e.g.
//
//	atomicity violation on Account.balance: another goroutine's write can
//	fall between this read and the write at bank.go:24; reproduced, test
//	fails: bank_test.go:19: balance = 10, want 30
//
// The steps that show it are Steps; "this" is the event at Site. A lead
// says how many other findings of its bug -v shows (groupNote).
func Message(f check.Finding) string {
	return inBubble(f, messageBody(f)) + groupNote(f)
}

// inBubble marks the message of a blocking bug replayed inside a
// synctest bubble as without effect (check's Effect), and says why.
func inBubble(f check.Finding, msg string) string {
	if !f.Verdict.Bubble || !f.Blocking() {
		return msg
	}
	return "interleaving without effect: " + msg + " (" + replay.BubbleBlockedNote + ")"
}

func messageBody(f check.Finding) string {
	if f.Anomaly.Pattern.Relock && f.Anomaly.Pattern.Lock {
		return staleInversion(f, "lock-order inversion")
	}
	if f.Anomaly.Pattern.Relock {
		return doubleLock(f, "double lock")
	}
	if f.Anomaly.Pattern.Lock {
		return inversion(f, lockKind(f))
	}
	if f.Anomaly.Pattern.Cond {
		return lostSignal(f, "lost signal")
	}
	if f.Anomaly.Pattern.Leak {
		return leak(f, "")
	}
	if f.Anomaly.Pattern.WG {
		return earlyWait(f, "WaitGroup.Add after Wait")
	}
	if f.Anomaly.Pattern.Order {
		return orderViolation(f, Title(f))
	}
	return message(f, Title(f))
}

// Headline is Message with the pattern named (Detailed), as `pecanvet
// check` prints it.
func Headline(f check.Finding) string {
	return inBubble(f, headlineBody(f)) + groupNote(f)
}

func headlineBody(f check.Finding) string {
	if f.Anomaly.Pattern.Relock && f.Anomaly.Pattern.Lock {
		return staleInversion(f, "lock-order inversion ("+f.Anomaly.Pattern.ID()+")")
	}
	if f.Anomaly.Pattern.Relock {
		return doubleLock(f, "double lock ("+f.Anomaly.Pattern.ID()+")")
	}
	if f.Anomaly.Pattern.Lock {
		return inversion(f, fmt.Sprintf("%s (%s)", lockKind(f), f.Anomaly.Pattern.ID()))
	}
	if f.Anomaly.Pattern.Cond {
		return lostSignal(f, "lost signal ("+f.Anomaly.Pattern.ID()+")")
	}
	if f.Anomaly.Pattern.Leak {
		return leak(f, f.Anomaly.Pattern.ID()+": ")
	}
	if f.Anomaly.Pattern.WG {
		return earlyWait(f, "WaitGroup.Add after Wait ("+f.Anomaly.Pattern.ID()+")")
	}
	if f.Anomaly.Pattern.Order {
		return orderViolation(f, Detailed(f))
	}
	return message(f, Detailed(f))
}

// leak is the message of a goroutine leak (a leak pattern, events: the
// select's case, the stranded operation), e.g.
//
//	goroutine g1.1.2 blocked forever in chan send at x.go:12: its
//	receiver returned at x.go:30 (leak); reproduced
//
// where x.go:30 is the select whose other branch the replay took. A
// stolen partner (option stolen) names the competing operation instead:
//
//	goroutine g1.1 blocked forever in chan receive at x.go:14: its
//	sender's value was taken at x.go:19 (leak); reproduced
func leak(f check.Finding, prefix string) string {
	if f.Anomaly.Pattern.Observed {
		return observedLeak(f, prefix)
	}
	sel, str := f.Anomaly.Sites[0], f.Anomaly.Sites[1]
	g, what, partner := "a goroutine", "chan send", "receiver"
	if sc := f.Schedule; sc != nil && len(sc.Anomaly) == 2 {
		st := sc.Steps[sc.Anomaly[1]]
		g = "goroutine " + st.G
		if st.Op == trace.Recv {
			what, partner = "chan receive", "sender"
		}
	}
	why := fmt.Sprintf("its %s returned at %s", partner, short(sel))
	if f.Anomaly.Pattern.Stolen {
		why = "its sender's value was taken at " + short(sel)
		if what == "chan send" {
			why = "its receiver took another send at " + short(sel)
		}
	}
	kind := "leak"
	if lv := f.Verdict.Leaked; len(lv) > 1 && f.Leak() {
		why = fmt.Sprintf("its %s took another branch at %s and blocks in a lock it holds: %s", partner, short(sel), strings.Join(lv[1:], "; "))
		kind = "deadlock"
	}
	msg := fmt.Sprintf("%s%s blocked forever in %s at %s: %s (%s); ", prefix, g, what, short(str), why, kind)
	if f.Leak() {
		return msg + "reproduced"
	}
	return msg + evidence(f)
}

// observedLeak is the message of a leak the recorded run itself showed
// (pattern leak/observed, one event: the blocked operation), e.g.
//
//	goroutine g1.1.1 blocked forever in chan send at x.go:14: its
//	receiver returned at x.go:19 (leak, observed in the recorded run);
//	reproduced
//
// where x.go:19 is the escape branch (a timeout) of the select through
// which the function that started the goroutine returned; or, for the
// other blocking operations check finds (check/observedsync.go),
//
//	goroutine g1.1.2 blocked forever in WaitGroup.Wait at x.go:36: its
//	counter cannot reach zero: every goroutine that can call Done has
//	exited (leak, observed in the recorded run); reproduced
//
// or of a hang a recorded run showed (pattern deadlock/hung,
// check/observedhang.go):
//
//	goroutine g1.1 blocked forever in chan receive at x.go:20: every
//	goroutine is blocked (deadlock, observed in a recorded run);
//	reproduced
func observedLeak(f check.Finding, prefix string) string {
	g, what, partner := "a goroutine", "chan send", "receiver"
	if sc := f.Schedule; sc != nil && len(sc.Anomaly) == 1 {
		st := sc.Steps[sc.Anomaly[0]]
		g = "goroutine " + st.G
		if st.Op == trace.Recv {
			what, partner = "chan receive", "sender"
		}
	}
	why := "nothing live can complete it"
	if r := f.Anomaly.Returned; r != "" {
		why = fmt.Sprintf("its %s returned at %s", partner, short(r))
	}
	if f.Anomaly.Waits != "" {
		what = f.Anomaly.Waits
	}
	if f.Anomaly.Stuck != "" {
		why = f.Anomaly.Stuck
	}
	msg := fmt.Sprintf("%s%s blocked forever in %s at %s: %s (leak, observed in the recorded run); ", prefix, g, what, short(f.Anomaly.Sites[0]), why)
	if f.Anomaly.Pattern.Kind == "deadlock" {
		// An observed hang (check/observedhang.go): Stuck says where
		// it was observed.
		msg = fmt.Sprintf("%s%s blocked forever in %s at %s: %s; ", prefix, g, what, short(f.Anomaly.Sites[0]), why)
	}
	if f.Leak() {
		return msg + "reproduced"
	}
	return msg + evidence(f)
}

// doubleLock is the message of a double lock by schedule (a relock
// pattern, events: the write, the read), reported at the read, e.g.
//
//	double lock: g1.1's write of Cache.stale (x.go:25) can come before
//	this read by g1, which then takes the branch that locks a mutex it
//	holds; reproduced, the replay deadlocks: g1 in lock Cache.mu#1
//	@x.go:31, holding it (RLock @x.go:12)
//
// or, when the read saw the write (deadlock/double-lock-stale), "this
// read by g1 can come before g1.1's write of Cache.ready (x.go:25), which
// it read in the recorded run, and g1 then takes …".
func doubleLock(f check.Finding, title string) string {
	st := func(k int) trace.Step { return f.Schedule.Steps[f.Schedule.Anomaly[k]] }
	r := f.Anomaly.Pattern.RelockRead()
	msg := fmt.Sprintf("%s: %s's write of %s (%s) can come before this read by %s, which then takes the branch that locks a mutex it holds; ",
		title, st(1-r).G, st(1-r).Obj, short(f.Anomaly.Sites[1-r]), st(r).G)
	if r == 0 {
		msg = fmt.Sprintf("%s: this read by %s can come before %s's write of %s (%s), which it read in the recorded run, and %s then takes the branch that locks a mutex it holds; ",
			title, st(0).G, st(1).G, st(1).Obj, short(f.Anomaly.Sites[1]), st(0).G)
	}
	if f.Deadlock() {
		return msg + "reproduced, the replay deadlocks: " + strings.Join(f.Verdict.Deadlocked, "; ")
	}
	return msg + evidence(f)
}

// orderViolation is the message of an order violation between two
// critical sections of one lock (an order pattern, events: the Lock of
// the section moved first, the Lock of the one it moved before),
// reported at the first, e.g.
//
//	order violation on ClientConn.mu: this section of ClientConn.Close
//	(g1.1) can run before the one of ClientConn.handleServiceConfig (g1.1.1)
//	at clientconn.go:106, which the recorded run ran first; reproduced,
//	panic: runtime error: invalid memory address or nil pointer
//	dereference at clientconn.go:36
func orderViolation(f check.Finding, title string) string {
	st := func(k int) trace.Step { return f.Schedule.Steps[f.Schedule.Anomaly[k]] }
	in := func(k int) string {
		if m := enclosing(f.Schedule, f.Schedule.Anomaly[k]); m != "" {
			return "the one of " + m + " (" + st(k).G + ")"
		}
		return st(k).G + "'s"
	}
	this := "this section"
	if m := enclosing(f.Schedule, f.Schedule.Anomaly[0]); m != "" {
		this += " of " + m
	}
	msg := fmt.Sprintf("%s: %s (%s) can run before %s at %s, which the recorded run ran first; ",
		title, this, st(0).G, in(1), short(f.Anomaly.Sites[1]))
	return msg + evidence(f)
}

// enclosing returns the method whose activation step i of s ran in, the
// innermost region its goroutine had begun and not ended; "" if none.
func enclosing(s *trace.Schedule, i int) string {
	if s == nil || i < 0 || i >= len(s.Steps) {
		return ""
	}
	g := s.Steps[i].G
	var open []string
	for _, st := range s.Steps[:i] {
		if st.G != g {
			continue
		}
		switch st.Op {
		case trace.RegionBegin:
			open = append(open, st.Obj)
		case trace.RegionEnd:
			if n := len(open); n > 0 {
				open = open[:n-1]
			}
		}
	}
	if n := len(open); n > 0 {
		return open[n-1]
	}
	return ""
}

// staleInversion is the message of a lock-order inversion down the path
// a stale read picks (a lock relock pattern, events: the read, the write
// it read), reported at the read, e.g.
//
//	lock-order inversion: this read by g1.2 can come before g1.1's write
//	of map#1 (x.go:65), which it read in the recorded run, and on the
//	older value g1.2 goes, holding its lock, for a lock g1.1 holds while
//	g1.1 waits for g1.2's; reproduced, the replay deadlocks: g1.2 in Lock
//	DevInfo.lock#1 @x.go:55, holding DeviceSet.Mutex#1 (@x.go:49:14);
//	g1.1 in Lock DeviceSet.Mutex#1 @x.go:74, holding DevInfo.lock#1
//	(@x.go:55:16)
func staleInversion(f check.Finding, title string) string {
	st := func(k int) trace.Step { return f.Schedule.Steps[f.Schedule.Anomaly[k]] }
	msg := fmt.Sprintf("%s: this read by %s can come before %s's write of %s (%s), which it read in the recorded run, and on the older value %s goes, holding its lock, for a lock %s holds while %s waits for %s's; ",
		title, st(0).G, st(1).G, st(1).Obj, short(f.Anomaly.Sites[1]), st(0).G, st(1).G, st(1).G, st(0).G)
	if f.Deadlock() {
		return msg + "reproduced, the replay deadlocks: " + strings.Join(f.Verdict.Deadlocked, "; ")
	}
	return msg + evidence(f)
}

// earlyWait is the message of a WaitGroup.Add after Wait (a wg pattern,
// events: the Wait, the Add from 0), reported at the Add, e.g.
//
//	WaitGroup.Add after Wait: g1.1's Wait on Batch.wg#1 (x.go:29) can
//	return before this Add by g1.1.1 runs, and then does not wait for its
//	work (an Add from 0 must happen before Wait); reproduced, test fails:
//	x_test.go:13: 0 jobs done, want 1
func earlyWait(f check.Finding, title string) string {
	st := func(k int) trace.Step { return f.Schedule.Steps[f.Schedule.Anomaly[k]] }
	return fmt.Sprintf("%s: %s's Wait on %s (%s) can return before this Add by %s runs, and then does not wait for its work (an Add from 0 must happen before Wait); %s",
		title, st(0).G, st(0).Obj, short(f.Anomaly.Sites[0]), st(1).G, evidence(f))
}

// lostSignal is the message of a lost signal (a cond pattern, events:
// the signal, the Wait's entry), e.g.
//
//	lost signal: g1.1.1 can signal Cond waitCond#1 (x.go:64) before g1.1
//	waits on it (x.go:73), and the Wait then blocks forever; reproduced,
//	the replay deadlocks
func lostSignal(f check.Finding, title string) string {
	st := func(k int) trace.Step { return f.Schedule.Steps[f.Schedule.Anomaly[k]] }
	op := "signal"
	if st(0).Op == trace.CondBroadcast {
		op = "broadcast"
	}
	msg := fmt.Sprintf("%s: %s can %s %s (%s) before %s waits on it (%s), and the Wait then blocks forever; ",
		title, st(0).G, op, st(0).Obj, short(f.Anomaly.Sites[0]), st(1).G, short(f.Anomaly.Sites[1]))
	if f.Deadlock() {
		return msg + "reproduced, the replay deadlocks"
	}
	return msg + evidence(f)
}

// lockKind names a finding's kind, a deadlock pattern's by its shape: a
// lock-order inversion, a recursive read lock behind a waiting writer, a
// lost signal.
func lockKind(f check.Finding) string {
	switch p := f.Anomaly.Pattern; {
	case p.Kind == "deadlock" && p.Observed:
		return "hang"
	case p.RWWriter():
		return "recursive read lock"
	case p.OnceRun():
		return "deadlock through sync.Once"
	case p.Cond:
		return "lost signal"
	case p.Relock && p.Lock:
		return "lock-order inversion"
	case p.Relock:
		return "double lock"
	}
	return pattern.KindName(f.Anomaly.Pattern.Kind)
}

// inversion is the message of a lock-order inversion (a lock pattern,
// events a1 b2 b1 a2): who holds which lock and waits for which, e.g.
//
//	lock-order inversion: g1.1 holds Account.mu#1 (x.go:10) and waits for
//	Account.mu#2 (x.go:11); g1.2 holds Account.mu#2 (x.go:20) and waits
//	for Account.mu#1 (x.go:21); reproduced, the replay deadlocks
func inversion(f check.Finding, title string) string {
	st := func(k int) trace.Step { return f.Schedule.Steps[f.Schedule.Anomaly[k]] }
	// The objects keep their instance numbers: two locks of one field
	// (two accounts' mutexes) are told apart only by them.
	obj := func(k int) string { return st(k).Obj }
	if f.Anomaly.Pattern.RWWriter() && len(f.Anomaly.Sites) == 3 {
		// events r1 w2 r1b: g1's read lock, g2's write lock, g1's second read lock
		msg := fmt.Sprintf("%s: %s holds %s for reading (%s) and read-locks it again (%s) while %s waits to write-lock it (%s), and a waiting writer keeps new readers out; ",
			title, st(0).G, obj(0), short(f.Anomaly.Sites[0]), short(f.Anomaly.Sites[2]), st(1).G, short(f.Anomaly.Sites[1]))
		if f.Deadlock() {
			return msg + "reproduced, the replay deadlocks"
		}
		return msg + evidence(f)
	}
	if f.Anomaly.Pattern.OnceRun() && len(f.Anomaly.Sites) == 3 {
		// events a1 b2 b1: g1's lock, g2's call of Do (which runs the
		// function), g1's call of Do on the same Once
		msg := fmt.Sprintf("%s: %s holds %s (%s) and calls Do on %s (%s) while %s's call of Do on it (%s) runs its function, which waits for %s (a function run at that call of Do took it, or a lock of its name, in the recorded run), and Do waits for the function; ",
			title, st(0).G, obj(0), short(f.Anomaly.Sites[0]), obj(2), short(f.Anomaly.Sites[2]), st(1).G, short(f.Anomaly.Sites[1]), obj(0))
		if f.Deadlock() {
			return msg + "reproduced, the replay deadlocks: " + strings.Join(f.Verdict.Deadlocked, "; ")
		}
		return msg + evidence(f)
	}
	side := func(hold, wait int) string {
		return fmt.Sprintf("%s holds %s (%s) and waits for %s (%s)", st(hold).G, obj(hold), short(f.Anomaly.Sites[hold]), obj(wait), short(f.Anomaly.Sites[wait]))
	}
	msg := title + ": " + side(0, 2) + "; " + side(1, 3) + "; "
	if f.Deadlock() {
		return msg + "reproduced, the replay deadlocks"
	}
	return msg + evidence(f)
}

func message(f check.Finding, title string) string {
	var b strings.Builder
	b.WriteString(title)
	b.WriteString(": ")
	b.WriteString(clause(f))
	b.WriteString("; ")
	b.WriteString(evidence(f))
	if f.Driver != "" {
		// No test of the package ran the two calls concurrently: say what
		// did, since the first steps are in the generated test.
		b.WriteString("; found by a generated driver calling " + f.Driver + " concurrently")
		if f.Anomaly.Pattern.Adjacent && f.DriverMeant != "" && !f.WithoutEffect() {
			// Why a race the calls show is the type's bug even when
			// no outcome is wrong.
			b.WriteString(" (" + f.DriverType + " is meant for concurrent use: " + f.DriverMeant + ")")
		}
	}
	if f.WithoutEffect() {
		return "interleaving without effect: " + b.String() + " (" + noEffect(f) + ")"
	}
	if f.Lead != "" {
		b.WriteString(" (the same bug as the violation reported at " + short(f.Lead) + ")")
	}
	return b.String()
}

// event is what one of the anomaly's events did and who did it.
type event struct {
	op, g string
}

func events(f check.Finding) []event {
	evs := make([]event, len(f.Anomaly.Events))
	for k := range evs {
		st := f.Schedule.Steps[f.Schedule.Anomaly[k]]
		evs[k] = event{opWord(st.Op), st.G}
	}
	return evs
}

// clause says what the anomaly's events can do, from the reported event's
// point of view ("this read").
func clause(f check.Finding) string {
	evs := events(f)
	site := func(k int) string { return short(f.Anomaly.Sites[k]) }
	if end, ok := testEnd(f); ok {
		// The end of a (sub)test is where package testing marks it
		// done: a goroutine that still uses its T outlived it.
		return fmt.Sprintf("use of the test's T at %s can run after the end of its test at %s, by a goroutine that outlives the test", site(1-end), site(end))
	}
	switch {
	case len(evs) == 2:
		r, o := at(f), 1-at(f)
		if f.Verdict.RaceDetector {
			return fmt.Sprintf("no synchronization orders this %s and another goroutine's %s (%s)", evs[r].op, evs[o].op, site(o))
		}
		return fmt.Sprintf("this %s and another goroutine's %s (%s) can run back to back", evs[r].op, evs[o].op, site(o))
	case f.Anomaly.Pattern.Acting && len(evs) == 3 && evs[0].g == evs[2].g && evs[1].g != evs[0].g:
		// av/RRW: the remote read is a check too; its goroutine acts on
		// the stale value as well (the effect shows it).
		return fmt.Sprintf("another goroutine's %s (%s) can fall between this check and the %s at %s, and it acts on what it read",
			evs[1].op, site(1), evs[2].op, site(2))
	case len(evs) == 3 && evs[0].g == evs[2].g && evs[1].g != evs[0].g:
		return fmt.Sprintf("another goroutine's %s can fall between this %s and the %s at %s", evs[1].op, evs[0].op, evs[2].op, site(2))
	}
	var b strings.Builder
	b.WriteString("this " + evs[0].op)
	for k := 1; k < len(evs); k++ {
		who := "this goroutine's"
		if evs[k].g != evs[0].g {
			who = "another goroutine's"
		}
		fmt.Fprintf(&b, ", then %s %s (%s)", who, evs[k].op, site(k))
	}
	b.WriteString(" can happen in this order")
	return b.String()
}

// evidence says what proved the finding and what it did to the program.
func evidence(f check.Finding) string {
	if f.Verdict.RaceDetector {
		return "Go's race detector reported them in the recorded run (no schedule runs them back to back)"
	}
	if d := f.Verdict.Detour; d != "" {
		// How the test ended may be the other path's doing.
		return "reproduced after " + d
	}
	if c := f.Verdict.Consequence; c != "" && f.Effect() && f.Verdict.Explored {
		if strings.HasPrefix(c, "test fails") {
			return explored(f) + ", and the " + c
		}
		return explored(f) + ": " + c
	}
	if c := f.Verdict.Consequence; c != "" && f.Effect() {
		return "reproduced, " + c
	}
	if f.Dependence != "" {
		return "reproduced; " + f.Dependence
	}
	if c := f.Verdict.Consequence; c != "" && f.Verdict.Bubble && !f.WithoutEffect() {
		// Reported all the same (a race): say why its consequence is
		// no part of the proof. (Without effect, noEffect says it.)
		return "reproduced (" + c + ", but " + replay.BubbleNote + ")"
	}
	if c := f.Verdict.Consequence; c != "" {
		return "reproduced, " + c
	}
	return "reproduced"
}

// explored says how far the schedule of a finding proved by exploration
// ran (replay.Verdict.Explored) and which reversed read sent it off the
// recorded path, up to what the program then did: "reproduced up to step
// 32 of 35, running the read at table.go:18 before the write at
// table.go:23; then the program ran free".
func explored(f check.Finding) string {
	v := f.Verdict
	b := fmt.Sprintf("reproduced up to step %d of %d", v.Step-1, v.Steps)
	if s := f.Schedule; s != nil && v.Changed >= 1 && v.Changed <= len(s.Steps) {
		r := s.Steps[v.Changed-1]
		for _, c := range s.Changed {
			if c.Read != v.Changed-1 {
				continue
			}
			switch {
			case c.Write < 0:
				b += fmt.Sprintf(", running the %s at %s ahead of the write it read in the recorded run", opWord(r.Op), short(r.Site))
			case c.Ahead:
				w := s.Steps[c.Write]
				b += fmt.Sprintf(", running the %s at %s before the %s at %s", opWord(r.Op), short(r.Site), opWord(w.Op), short(w.Site))
			default:
				w := s.Steps[c.Write]
				b += fmt.Sprintf(", running the %s at %s after the %s at %s", opWord(r.Op), short(r.Site), opWord(w.Op), short(w.Site))
			}
			break
		}
	}
	return b + "; then the program ran free"
}

// noEffect says why a finding without effect is not reported by default.
func noEffect(f check.Finding) string {
	passes := "the test passes"
	if f.Control != "" {
		// The replay failed, but so did a serial order of the same
		// schedule (check's control replays): the schedule's timing.
		passes = "the test's failure is not the interleaving's: " + f.Control
	}
	if v := f.Verdict; v.Bubble && (!v.Passed || v.Panicked) {
		passes = replay.BubbleNote
	}
	drvPasses := "the generated driver's test passes"
	if f.Control != "" {
		// Its replay failed, and a repeat of it passed (check's
		// driver repeat): the failure came from outside the schedule.
		drvPasses = "the generated driver's failure is not the interleaving's: " + f.Control
	}
	switch {
	case f.Driver != "" && f.Anomaly.Pattern.Adjacent && f.DriverMeant != "":
		return "neither access holds a lock or is atomic, and " + drvPasses + ": " + f.DriverType + " may mean these calls for one caller at a time"
	case f.Driver != "" && f.DriverMeant == "":
		return f.DriverType + " is not meant for concurrent use (it holds no sync or sync/atomic value or channel of its own, and its doc does not say it is safe for concurrent use): the package may never make these calls concurrent"
	case f.Driver != "" && f.Control != "":
		return drvPasses + "; the calls showed no other outcome that no sequential order gives, and the package may never make them concurrent"
	case f.Driver != "":
		return "the generated driver's test passes: the calls showed no outcome that no sequential order gives, and the package may never make them concurrent"
	case f.Anomaly.Recheck:
		return f.Anomaly.SplitWhy(short) + ", and " + passes
	case f.Anomaly.Pattern.Acting:
		return "another goroutine's check inside this one counts only if acting on it twice makes the test fail, and " + passes
	}
	if st := f.SilentStores(); len(st) > 0 {
		var at []string
		for _, i := range st {
			at = append(at, short(f.Schedule.Steps[i].Site))
		}
		return "the store at " + strings.Join(at, " and ") + " wrote the value already there, so the interleaving changes no value anyone reads, and " + passes
	}
	return "the interleaving changes no value the unit goes on to use, and " + passes
}

// Detail explains a finding further where Message is terse, or is "": for
// one Go's race detector confirmed, why no schedule runs its accesses back
// to back and whose steps the clip shows.
func Detail(f check.Finding) string {
	if f.Verdict.RaceDetector {
		return "no schedule runs them back to back: the later one is reached only after seeing the earlier one's effect through something that does not synchronize, such as len of a channel; the clip is the recorded run"
	}
	return ""
}

// groupNote is what a lead's message adds for the other findings of its
// bug (check.Finding.Grouped), shown only with -v: " (and other
// interleavings of this bug, shown with -v)". It is "" for a finding
// that leads no others, or that is itself not reported by default. It
// names no count, nor whether the others showed the lead's effect: how
// many of a bug's interleavings a run reproduces, and which of them the
// controls leave an effect, vary from run to run (retryloop's lead
// counted 2 to 4 more, "with this effect" or "of this bug"), and the
// report must not (issue 26, "Stable"). The count is in -json's
// "grouped".
func groupNote(f check.Finding) string {
	if f.Grouped == 0 || f.Lead != "" || f.WithoutEffect() {
		return ""
	}
	what := "interleavings of this bug"
	if f.Leak() {
		what = "interleavings stranding this operation"
	}
	return " (and other " + what + ", shown with -v)"
}

// More is what a diagnostic that stands for n more findings of the kind at
// its position adds to its message: " (and 2 more data races here)".
func More(kind string, n int) string {
	w := pattern.KindName(kind)
	if n != 1 {
		w += "s"
	}
	return fmt.Sprintf(" (and %d more %s here)", n, w)
}

// Pruned says what replay made of a finding it did not reproduce:
// "diverged at step 5 of 12: expected …".
func Pruned(f check.Finding) string {
	v := f.Verdict
	msg := v.Message
	if msg == "" {
		msg = v.Expected
	}
	return fmt.Sprintf("%s at step %d of %d: %s", v.Verdict, v.Step, v.Steps, msg)
}

// Interleaving is the anomaly's events in the order replay ran them, on one
// line: "g1 read x (a.go:12) → g2 write x (b.go:30) → g1 write x (a.go:14)".
func Interleaving(f check.Finding) string {
	idx := append([]int(nil), f.Schedule.Anomaly...)
	sort.Ints(idx)
	parts := make([]string, len(idx))
	for k, i := range idx {
		st := f.Schedule.Steps[i]
		obj := st.Obj
		if j := strings.LastIndexByte(obj, '#'); j > 0 {
			obj = obj[:j]
		}
		parts[k] = strings.Join(strings.Fields(fmt.Sprintf("%s %s %s (%s)", st.G, opWord(st.Op), obj, short(st.Site))), " ")
	}
	return strings.Join(parts, " → ")
}

// Standalone is msg, a finding's message, followed by its interleaving: the
// message for a reader that drops the steps (golangci-lint).
func Standalone(msg string, f check.Finding) string {
	return msg + "; " + Interleaving(f)
}

// A Step is one step of a finding's replayed schedule, as reports show it
// beside the message.
type Step struct {
	N     int // the step's number in the schedule, from 1
	G     string
	Op    trace.Op
	Obj   string
	Site  trace.Site // the zero Site if unknown
	Event int        // which of the anomaly's events it is, from 1; 0 if none
}

// Action is what the step does: "g1 read Account.balance#2".
func (s Step) Action() string {
	a := s.G + " " + s.Op.String()
	if s.Obj != "" {
		a += " " + s.Obj
	}
	return a
}

// String is the step as related information shows it: "step 3: g1 read
// Account.balance#2 (e1)".
func (s Step) String() string {
	t := fmt.Sprintf("step %d: %s", s.N, s.Action())
	if s.Event > 0 {
		t += fmt.Sprintf(" (e%d)", s.Event)
	}
	return t
}

// Steps returns the steps to show beside a finding's message: those of
// its clip (replay.Clip: long runs of one goroutine collapsed, the
// anomaly's events always kept) that the program did — not the recorder's
// bookkeeping (a goroutine's begin and end, a unit of work's region
// markers) — and that have a site.
func Steps(f check.Finding) []Step {
	var out []Step
	for _, l := range replay.Clip(f.Schedule) {
		if l.Step == 0 {
			continue // a collapse note
		}
		st := f.Schedule.Steps[l.Step-1]
		if bookkeeping(st.Op) {
			continue
		}
		site, err := trace.ParseSite(st.Site)
		if err != nil {
			continue
		}
		out = append(out, Step{N: l.Step, G: st.G, Op: st.Op, Obj: st.Obj, Site: site, Event: l.Anomaly})
	}
	return out
}

// Events returns the anomaly's events, in pattern order, as steps.
func Events(f check.Finding) []Step {
	out := make([]Step, len(f.Anomaly.Events))
	for k := range out {
		i := f.Schedule.Anomaly[k]
		st := f.Schedule.Steps[i]
		site, _ := trace.ParseSite(st.Site)
		out[k] = Step{N: i + 1, G: st.G, Op: st.Op, Obj: st.Obj, Site: site, Event: k + 1}
	}
	return out
}

// bookkeeping reports whether op is an event the recorder adds rather than
// an operation of the program.
func bookkeeping(op trace.Op) bool {
	switch op {
	case trace.Begin, trace.End, trace.RegionBegin, trace.RegionEnd:
		return true
	}
	return false
}

// opWord is how a message names an access: atomic or not, a load is a read.
func opWord(op trace.Op) string {
	switch op {
	case trace.Read, trace.AtomicLoad:
		return "read"
	case trace.Write, trace.AtomicStore:
		return "write"
	case trace.AtomicRMW:
		return "read-modify-write"
	}
	return op.String()
}

// short is a site as messages show it: "bank.go:24", "?" if unknown, the
// text itself if it is no site.
func short(s string) string {
	if s == "" {
		return "?"
	}
	site, err := trace.ParseSite(s)
	if err != nil {
		return s
	}
	return site.Short()
}
