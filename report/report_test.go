package report_test

import (
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/report"
)

func step(t *testing.T, g, op, obj, site string) trace.Step {
	t.Helper()
	o, ok := trace.ParseOp(op)
	if !ok {
		t.Fatalf("op %q", op)
	}
	return trace.Step{G: g, Op: o, Obj: obj, Site: site, N: 1}
}

// lostUpdate is account's lost deposit (av/RWW) as replay proves it:
// g1.1's write falls between g1's read and write of the target balance.
func lostUpdate(t *testing.T) check.Finding {
	t.Helper()
	pat := pattern.MustParse("av/RWW atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-w")[0]
	s := &trace.Schedule{Pattern: "av/RWW", Anomaly: []int{2, 6, 8}, Steps: []trace.Step{
		step(t, "g1", "region-begin", "Account.Transfer", "account/account.go:45:20"),
		step(t, "g1", "lock", "Account.mu#1", "account/account.go:47:11"),
		step(t, "g1", "read", "Account.balance#2", "account/account.go:53:5"),
		step(t, "g1.1", "begin", "", ""),
		step(t, "g1.1", "region-begin", "Account.Deposit", "account/account.go:25:20"),
		step(t, "g1.1", "read", "Account.balance#2", "account/account.go:28:9"),
		step(t, "g1.1", "write", "Account.balance#2", "account/account.go:29:4"),
		step(t, "g1.1", "region-end", "Account.Deposit", "account/account.go:25:20"),
		step(t, "g1", "write", "Account.balance#2", "account/account.go:53:5"),
	}}
	return check.Finding{
		Package: "subjects/account", Test: "TestTransferAndDeposit",
		Anomaly: predict.Anomaly{Pattern: pat, Events: []int32{8, 14, 15},
			Sites: []string{"account/account.go:53:5", "account/account.go:29:4", "account/account.go:53:5"}},
		Schedule:   s,
		Verdict:    replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: account_test.go:29: bob = 150, want 180"},
		Goroutines: []string{"g1", "g1.1", "g1"},
		Objects:    []string{"Account.balance#2", "Account.balance#2", "Account.balance#2"},
	}
}

// race is a data race whose events replay ran in the order opposite to the
// source's: the write at line 30 first, then the read at line 12.
func race(t *testing.T) check.Finding {
	t.Helper()
	pat := pattern.MustParse("race/WR T=t1-t2 SV=s1-s1 AR=u1-u2 AT=w-r adjacent")[0]
	s := &trace.Schedule{Pattern: "race/WR", Anomaly: []int{1, 2}, Steps: []trace.Step{
		step(t, "g1", "fork", "g1.1", "srv/srv_test.go:8:2"),
		step(t, "g1.1", "write", "Server.stopped#1", "srv/srv.go:30:3"),
		step(t, "g1", "read", "Server.stopped#1", "srv/srv.go:12:9"),
	}}
	return check.Finding{
		Package: "srv", Test: "TestStop",
		Anomaly:    predict.Anomaly{Pattern: pat, Events: []int32{4, 7}, Sites: []string{"srv/srv.go:30:3", "srv/srv.go:12:9"}},
		Schedule:   s,
		Verdict:    replay.Verdict{Verdict: replay.Reproduced, Passed: true},
		Goroutines: []string{"g1.1", "g1"},
		Objects:    []string{"Server.stopped#1", "Server.stopped#1"},
	}
}

// lateLog is a goroutine's t.Logf (a read of the subtest's T) after its
// subtest ended (the write at the t.Run call).
func lateLog(t *testing.T) check.Finding {
	t.Helper()
	pat := pattern.MustParse("race/RW T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w adjacent")[0]
	s := &trace.Schedule{Pattern: "race/RW", Anomaly: []int{1, 2}, Steps: []trace.Step{
		step(t, "g1.1.1", "fork", "g1.1.1.1", "log/log.go:26:4"),
		step(t, "g1.1.1.1", "read", "testing.T#1", "log/log.go:30:11"),
		step(t, "g1.1.1", "write", "testing.T#1", "log/log.go:25:5"),
	}}
	return check.Finding{
		Package: "log", Test: "TestScenario",
		Anomaly:    predict.Anomaly{Pattern: pat, Events: []int32{9, 12}, Sites: []string{"log/log.go:30:11", "log/log.go:25:5"}},
		Schedule:   s,
		Verdict:    replay.Verdict{Verdict: replay.Reproduced, Passed: true},
		Goroutines: []string{"g1.1.1.1", "g1.1.1"},
		Objects:    []string{"testing.T#1", "testing.T#1"},
	}
}

func TestMessage(t *testing.T) {
	for _, tc := range []struct {
		name   string
		f      func(*testing.T) check.Finding
		change func(*check.Finding)
		want   string
	}{
		{"lost update", lostUpdate, nil,
			"atomicity violation on Account.balance: another goroutine's write can fall between this read and the write at account.go:53; reproduced, test fails: account_test.go:29: bob = 150, want 180"},
		{"race", race, nil,
			"data race on Server.stopped: this read and another goroutine's write (srv.go:30) can run back to back; reproduced"},
		{"race detector", race, func(f *check.Finding) { f.Verdict.RaceDetector = true },
			"data race on Server.stopped: no synchronization orders this read and another goroutine's write (srv.go:30); Go's race detector reported them in the recorded run (no schedule runs them back to back)"},
		{"driver", lostUpdate, func(f *check.Finding) {
			f.Driver, f.DriverType, f.DriverMeant = "Transfer and Deposit", "Account", "it holds a sync.Mutex"
		}, "atomicity violation on Account.balance: another goroutine's write can fall between this read and the write at account.go:53; reproduced, test fails: account_test.go:29: bob = 150, want 180; found by a generated driver calling Transfer and Deposit concurrently"},
		{"driver, type not meant for concurrent use", lostUpdate, func(f *check.Finding) { f.Driver, f.DriverType = "Transfer and Deposit", "Account" },
			"interleaving without effect: atomicity violation on Account.balance: another goroutine's write can fall between this read and the write at account.go:53; reproduced, test fails: account_test.go:29: bob = 150, want 180; found by a generated driver calling Transfer and Deposit concurrently (Account is not meant for concurrent use (it holds no sync or sync/atomic value or channel of its own, and its doc does not say it is safe for concurrent use): the package may never make these calls concurrent)"},
		{"no effect", lostUpdate, func(f *check.Finding) {
			f.Verdict.Consequence, f.Verdict.Passed = "", true
		}, "interleaving without effect: atomicity violation on Account.balance: another goroutine's write can fall between this read and the write at account.go:53; reproduced (the interleaving changes no value the unit goes on to use, and the test passes)"},
		{"failure a serial control shows too", lostUpdate, func(f *check.Finding) {
			f.Control = "both serial orders, the other goroutines' steps before the unit and after it, fail the same way"
		}, "interleaving without effect: atomicity violation on Account.balance: another goroutine's write can fall between this read and the write at account.go:53; reproduced, test fails: account_test.go:29: bob = 150, want 180 (the interleaving changes no value the unit goes on to use, and the test's failure is not the interleaving's: both serial orders, the other goroutines' steps before the unit and after it, fail the same way)"},
		{"dependence", lostUpdate, func(f *check.Finding) {
			f.Verdict.Consequence, f.Verdict.Passed = "", true
			f.Dependence = "read-modify-write: the value read at account.go:53 is written back by the write at account.go:53"
		}, "atomicity violation on Account.balance: another goroutine's write can fall between this read and the write at account.go:53; reproduced; read-modify-write: the value read at account.go:53 is written back by the write at account.go:53"},
		{"recheck", lostUpdate, func(f *check.Finding) {
			f.Anomaly.Split, f.Anomaly.Recheck = "account/account.go:50:12", true
			f.Verdict.Consequence, f.Verdict.Passed = "", true
			f.Dependence = "check-then-act: the value read at account.go:53 decides the write at account.go:53"
		}, "interleaving without effect: atomicity violation on Account.balance: another goroutine's write can fall between this read and the write at account.go:53; reproduced; check-then-act: the value read at account.go:53 decides the write at account.go:53 (the unit takes a lock at account.go:50 and re-checks under it what it read before, and the test passes)"},
		{"failure inside a synctest bubble", lostUpdate, func(f *check.Finding) { f.Verdict.Bubble = true },
			"interleaving without effect: atomicity violation on Account.balance: another goroutine's write can fall between this read and the write at account.go:53; reproduced, test fails: account_test.go:29: bob = 150, want 180 (the interleaving changes no value the unit goes on to use, and the replay ran inside a testing/synctest bubble, whose fake clock and deadlock detection know nothing of the replay's holds and let-gos, so how the test ended is no evidence)"},
		{"race failing inside a synctest bubble", race, func(f *check.Finding) {
			f.Verdict.Bubble, f.Verdict.Passed, f.Verdict.Consequence = true, false, "test fails: srv_test.go:9: stopped twice"
		}, "data race on Server.stopped: this read and another goroutine's write (srv.go:30) can run back to back; reproduced (test fails: srv_test.go:9: stopped twice, but the replay ran inside a testing/synctest bubble, whose fake clock and deadlock detection know nothing of the replay's holds and let-gos, so how the test ended is no evidence)"},
		{"double close", race, func(f *check.Finding) {
			f.Anomaly.Pattern = pattern.MustParse("race/close-close adjacent chan T=t1-t2 SV=s1-s1 AR=u1-u2 AT=w-w")[0]
			f.Schedule.Steps[1].Op, f.Schedule.Steps[2].Op = trace.Close, trace.Close
			f.Objects = []string{"chan_struct{}#1", "chan_struct{}#1"}
			f.Verdict.Passed, f.Verdict.Consequence = false, "test fails: srv_test.go:9: Shutdown: closed twice"
		}, "double close of chan_struct{}: this close and another goroutine's close (srv.go:30) can run back to back; reproduced, test fails: srv_test.go:9: Shutdown: closed twice"},
		{"lead of its effect's group", lostUpdate, func(f *check.Finding) { f.Grouped = 11 },
			"atomicity violation on Account.balance: another goroutine's write can fall between this read and the write at account.go:53; reproduced, test fails: account_test.go:29: bob = 150, want 180 (and other interleavings of this bug, shown with -v)"},
		{"lead of its bug, one more", lostUpdate, func(f *check.Finding) { f.Grouped = 1 },
			"atomicity violation on Account.balance: another goroutine's write can fall between this read and the write at account.go:53; reproduced, test fails: account_test.go:29: bob = 150, want 180 (and other interleavings of this bug, shown with -v)"},
		{"lead of its dependence's group, one more", lostUpdate, func(f *check.Finding) {
			f.Verdict.Consequence, f.Verdict.Passed = "", true
			f.Dependence = "check-then-act: the value read at account.go:53 decides the write at account.go:53"
			f.Grouped = 1
		}, "atomicity violation on Account.balance: another goroutine's write can fall between this read and the write at account.go:53; reproduced; check-then-act: the value read at account.go:53 decides the write at account.go:53 (and other interleavings of this bug, shown with -v)"},
		{"member of a group", lostUpdate, func(f *check.Finding) { f.Lead = "account/account.go:40:2" },
			"atomicity violation on Account.balance: another goroutine's write can fall between this read and the write at account.go:53; reproduced, test fails: account_test.go:29: bob = 150, want 180 (the same bug as the violation reported at account.go:40)"},
		{"test's T", lateLog, nil,
			"data race on the test's T: use of the test's T at log.go:30 can run after the end of its test at log.go:25, by a goroutine that outlives the test; reproduced"},
		{"driver race, type not meant for concurrent use", race, func(f *check.Finding) { f.Driver, f.DriverType = "Stop and Stopped", "Server" },
			"interleaving without effect: data race on Server.stopped: this read and another goroutine's write (srv.go:30) can run back to back; reproduced; found by a generated driver calling Stop and Stopped concurrently (Server is not meant for concurrent use (it holds no sync or sync/atomic value or channel of its own, and its doc does not say it is safe for concurrent use): the package may never make these calls concurrent)"},
		{"driver race, type meant for concurrent use, a locked access", race, func(f *check.Finding) {
			f.Driver, f.DriverType, f.DriverMeant = "Stop and Stopped", "Server", "it holds a sync.Mutex"
			st := f.Schedule.Steps
			f.Schedule = &trace.Schedule{Pattern: f.Schedule.Pattern, Anomaly: []int{2, 3},
				Steps: []trace.Step{st[0], step(t, "g1.1", "lock", "Server.mu#1", "srv/srv.go:29:3"), st[1], st[2]}}
		}, "data race on Server.stopped: this read and another goroutine's write (srv.go:30) can run back to back; reproduced; found by a generated driver calling Stop and Stopped concurrently (Server is meant for concurrent use: it holds a sync.Mutex)"},
		{"driver race, type meant for concurrent use, no lock, no effect", race, func(f *check.Finding) {
			f.Driver, f.DriverType, f.DriverMeant = "Stop and Stopped", "Server", "it holds a sync.Mutex"
		}, "interleaving without effect: data race on Server.stopped: this read and another goroutine's write (srv.go:30) can run back to back; reproduced; found by a generated driver calling Stop and Stopped concurrently (neither access holds a lock or is atomic, and the generated driver's test passes: Server may mean these calls for one caller at a time)"},
		{"driver race, type meant for concurrent use, an atomic access", race, func(f *check.Finding) {
			f.Driver, f.DriverType, f.DriverMeant = "Stop and Stopped", "Server", "it holds a sync.Mutex"
			st := f.Schedule.Steps
			f.Schedule = &trace.Schedule{Pattern: f.Schedule.Pattern, Anomaly: []int{1, 2},
				Steps: []trace.Step{st[0], st[1], step(t, "g1", "atomic-load", "Server.stopped#1", "srv/srv.go:12:9")}}
		}, "data race on Server.stopped: this read and another goroutine's write (srv.go:30) can run back to back; reproduced; found by a generated driver calling Stop and Stopped concurrently (Server is meant for concurrent use: it holds a sync.Mutex)"},
		{"driver without effect", lostUpdate, func(f *check.Finding) {
			f.Verdict.Consequence, f.Verdict.Passed = "", true
			f.Driver, f.DriverType, f.DriverMeant = "Transfer and Deposit", "Account", "it holds a sync.Mutex"
		}, "interleaving without effect: atomicity violation on Account.balance: another goroutine's write can fall between this read and the write at account.go:53; reproduced; found by a generated driver calling Transfer and Deposit concurrently (the generated driver's test passes: the calls showed no outcome that no sequential order gives, and the package may never make them concurrent)"},
		{"acting", lostUpdate, func(f *check.Finding) {
			f.Anomaly.Pattern = pattern.MustParse("av/RRW atomic acting T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-r-w")[0]
			f.Schedule.Steps[6] = step(t, "g1.1", "atomic-load", "Account.balance#2", "account/account.go:28:9")
			f.Anomaly.Sites[1] = "account/account.go:28:9"
		}, "atomicity violation on Account.balance: another goroutine's read (account.go:28) can fall between this check and the write at account.go:53, and it acts on what it read; reproduced, test fails: account_test.go:29: bob = 150, want 180"},
		{"acting without effect", lostUpdate, func(f *check.Finding) {
			f.Anomaly.Pattern = pattern.MustParse("av/RRW atomic acting T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-r-w")[0]
			f.Schedule.Steps[6] = step(t, "g1.1", "atomic-load", "Account.balance#2", "account/account.go:28:9")
			f.Anomaly.Sites[1] = "account/account.go:28:9"
			f.Verdict.Consequence, f.Verdict.Passed = "", true
		}, "interleaving without effect: atomicity violation on Account.balance: another goroutine's read (account.go:28) can fall between this check and the write at account.go:53, and it acts on what it read; reproduced (another goroutine's check inside this one counts only if acting on it twice makes the test fail, and the test passes)"},
		{"explored", lostUpdate, func(f *check.Finding) {
			// g1's read ran ahead of g1.1's write (step 7), and g1.1 took
			// another path at step 8: the program ran free from there.
			f.Schedule.Changed = []trace.Change{{Read: 2, Write: 6, Ahead: true}}
			f.Verdict.Explored, f.Verdict.Step, f.Verdict.Steps, f.Verdict.Changed = true, 8, 9, 3
		}, "atomicity violation on Account.balance: another goroutine's write can fall between this read and the write at account.go:53; reproduced up to step 7 of 9, running the read at account.go:53 before the write at account.go:29; then the program ran free, and the test fails: account_test.go:29: bob = 150, want 180"},
		{"explored, panic, write not scheduled", lostUpdate, func(f *check.Finding) {
			f.Schedule.Changed = []trace.Change{{Read: 2, Write: -1, Ahead: true}}
			f.Verdict.Explored, f.Verdict.Step, f.Verdict.Steps, f.Verdict.Changed = true, 4, 9, 3
			f.Verdict.Panicked, f.Verdict.Consequence = true, "panic: boom at account.go:60"
		}, "atomicity violation on Account.balance: another goroutine's write can fall between this read and the write at account.go:53; reproduced up to step 3 of 9, running the read at account.go:53 ahead of the write it read in the recorded run; then the program ran free: panic: boom at account.go:60"},
	} {
		f := tc.f(t)
		if tc.change != nil {
			tc.change(&f)
		}
		if got := report.Message(f); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
		if h := report.Headline(f); !strings.Contains(h, " ("+f.Anomaly.Pattern.ID()+") on ") {
			t.Errorf("%s: headline %s does not name the pattern", tc.name, h)
		}
	}
}

// TestSite: a race is reported at the earlier of its sites in the source,
// whichever order replay ran them in, and "this" access is that one.
func TestSite(t *testing.T) {
	f := race(t)
	if got := report.Site(f).String(); got != "srv/srv.go:12:9" {
		t.Errorf("race reported at %s, want srv/srv.go:12:9", got)
	}
	if got := report.Site(lostUpdate(t)).String(); got != "account/account.go:53:5" {
		t.Errorf("lost update reported at %s, want its first event's site", got)
	}
}

// TestInterleaving: the anomaly's events in the order replay ran them,
// whatever the order of the pattern.
func TestInterleaving(t *testing.T) {
	f := lostUpdate(t)
	want := "g1 read Account.balance (account.go:53) → g1.1 write Account.balance (account.go:29) → g1 write Account.balance (account.go:53)"
	if got := report.Interleaving(f); got != want {
		t.Errorf("Interleaving:\n got %s\nwant %s", got, want)
	}
	f.Schedule.Anomaly = []int{8, 2, 6}
	if got := report.Interleaving(f); got != want {
		t.Errorf("Interleaving with the events listed out of order:\n got %s\nwant %s", got, want)
	}
	if got, msg := report.Standalone(report.Message(f), f), report.Message(f); got != msg+"; "+want {
		t.Errorf("Standalone: %s", got)
	}
}

// TestSteps: the steps beside the message are the program's operations
// with a site, numbered as in the schedule, the anomaly's events marked;
// no region markers, no goroutine begin.
func TestSteps(t *testing.T) {
	var got []string
	for _, s := range report.Steps(lostUpdate(t)) {
		got = append(got, s.String()+" @"+s.Site.Short())
	}
	want := []string{
		"step 2: g1 lock Account.mu#1 @account.go:47",
		"step 3: g1 read Account.balance#2 (e1) @account.go:53",
		"step 6: g1.1 read Account.balance#2 @account.go:28",
		"step 7: g1.1 write Account.balance#2 (e2) @account.go:29",
		"step 9: g1 write Account.balance#2 (e3) @account.go:53",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	evs := report.Events(lostUpdate(t))
	if len(evs) != 3 || evs[1].Action() != "g1.1 write Account.balance#2" || evs[1].N != 7 || evs[1].Event != 2 {
		t.Errorf("events %+v", evs)
	}
}

func TestMore(t *testing.T) {
	if got := report.More("race", 1); got != " (and 1 more data race here)" {
		t.Error(got)
	}
	if got := report.More("av", 2); got != " (and 2 more atomicity violations here)" {
		t.Error(got)
	}
}

// inversionFinding is abba's lock-order inversion as replay proves it:
// the replay deadlocked with both goroutines in their second Lock.
func inversionFinding(t *testing.T, deadlocked []string) check.Finding {
	t.Helper()
	pat, _ := pattern.Builtin("deadlock")
	s := &trace.Schedule{Pattern: "deadlock/lock-order", Anomaly: []int{0, 1, 2, 3}, Steps: []trace.Step{
		step(t, "g1.1", "lock", "Account.mu#1", "abba/bank.go:14:14"),
		step(t, "g1.2", "lock", "Account.mu#2", "abba/bank.go:14:14"),
		step(t, "g1.1", "lock", "Account.mu#2", "abba/bank.go:16:12"),
		step(t, "g1.2", "lock", "Account.mu#1", "abba/bank.go:16:12"),
	}}
	return check.Finding{
		Package: "subjects/abba", Test: "TestTransfers",
		Anomaly: predict.Anomaly{Pattern: pat[0], Events: []int32{5, 9, 12, 13},
			Sites: []string{"abba/bank.go:14:14", "abba/bank.go:14:14", "abba/bank.go:16:12", "abba/bank.go:16:12"}},
		Schedule: s,
		Verdict:  replay.Verdict{Verdict: replay.Reproduced, Deadlocked: deadlocked, Consequence: "the replay deadlocks"},
	}
}

func TestInversionMessage(t *testing.T) {
	f := inversionFinding(t, []string{"g1.1 in lock Account.mu#2 @abba/bank.go:16:12", "g1.2 in lock Account.mu#1 @abba/bank.go:16:12"})
	want := "lock-order inversion: g1.1 holds Account.mu#1 (bank.go:14) and waits for Account.mu#2 (bank.go:16); g1.2 holds Account.mu#2 (bank.go:14) and waits for Account.mu#1 (bank.go:16); reproduced, the replay deadlocks"
	if got := report.Message(f); got != want {
		t.Errorf("Message:\n got %s\nwant %s", got, want)
	}
	if got := report.Site(f).Short(); got != "bank.go:16" {
		t.Errorf("Site %s, want the first goroutine's waiting acquisition, bank.go:16", got)
	}
	if !f.Effect() || f.WithoutEffect() {
		t.Error("a reproduced deadlock is its own effect")
	}
	if len(f.Verdict.Deadlocked) == 2 && !strings.HasPrefix(report.Headline(f), "lock-order inversion (deadlock/lock-order): ") {
		t.Errorf("Headline %q", report.Headline(f))
	}
	// Inside a synctest bubble the held goroutines looked blocked to
	// it: the deadlock is no proof.
	b := inversionFinding(t, f.Verdict.Deadlocked)
	b.Verdict.Bubble = true
	if b.Effect() || !b.WithoutEffect() {
		t.Error("a deadlock replayed inside a synctest bubble counts as an effect")
	}
	if got, want := report.Message(b), "interleaving without effect: "+want+" ("+replay.BubbleBlockedNote+")"; got != want {
		t.Errorf("Message in a bubble:\n got %s\nwant %s", got, want)
	}
	// Without the deadlock (a replay that took another path, then failed)
	// it is no proof.
	g := inversionFinding(t, nil)
	g.Verdict.Consequence = "test fails: bank_test.go:25: alice = 90"
	if g.Reproduced() || g.Deadlock() || strings.Contains(report.Message(g), "the replay deadlocks") {
		t.Errorf("a finding without Deadlocked counts as proved: %q", report.Message(g))
	}
}

// TestStolenMessage: a stolen partner names the competing operation
// that took the partner, in both directions, and is no proof without the
// goroutine the replay left blocked.
func TestStolenMessage(t *testing.T) {
	var pat *pattern.Pattern
	leaks, _ := pattern.Builtin("leak")
	for _, p := range leaks {
		if p.Stolen {
			pat = p
		}
	}
	finding := func(op string, leaked []string) check.Finding {
		s := &trace.Schedule{Pattern: pat.ID(), Anomaly: []int{0, 1}, Steps: []trace.Step{
			step(t, "g1.1.2", op, "chan_string#1", "stolenrecv/relay.go:19:8"),
			step(t, "g1.1.1", op, "chan_string#1", "stolenrecv/relay.go:14:10"),
		}}
		return check.Finding{
			Package: "subjects/stolenrecv", Test: "TestUpper",
			Anomaly:  predict.Anomaly{Pattern: pat, Events: []int32{7, 8}, Sites: []string{"stolenrecv/relay.go:19:8", "stolenrecv/relay.go:14:10"}},
			Schedule: s,
			Verdict:  replay.Verdict{Verdict: replay.Reproduced, Leaked: leaked, Passed: true},
		}
	}
	f := finding("recv", []string{"g1.1.1 in chan receive chan_string#1 @stolenrecv/relay.go:14:10"})
	if got, want := report.Message(f), "goroutine g1.1.1 blocked forever in chan receive at relay.go:14: its sender's value was taken at relay.go:19 (leak); reproduced"; got != want {
		t.Errorf("Message:\n got %s\nwant %s", got, want)
	}
	if got := report.Site(f).Short(); got != "relay.go:14" {
		t.Errorf("Site %s, want the stranded receive, relay.go:14", got)
	}
	f = finding("send", []string{"g1.1.1 in chan send chan_string#1 @stolenrecv/relay.go:14:10"})
	if got, want := report.Message(f), "goroutine g1.1.1 blocked forever in chan send at relay.go:14: its receiver took another send at relay.go:19 (leak); reproduced"; got != want {
		t.Errorf("Message:\n got %s\nwant %s", got, want)
	}
	if g := finding("recv", nil); g.Reproduced() || g.Leak() || g.Effect() {
		t.Error("a stolen partner without Leaked counts as proved")
	}
}

// TestLeakLockMessage: a leak whose select's goroutine, after its other
// branch, blocks in a lock the stranded goroutine holds (the replay's
// second Leaked entry) reads as a deadlock.
func TestLeakLockMessage(t *testing.T) {
	var pat *pattern.Pattern
	leaks, _ := pattern.Builtin("leak")
	for _, p := range leaks {
		if !p.Stolen {
			pat = p
		}
	}
	s := &trace.Schedule{Pattern: pat.ID(), Anomaly: []int{0, 1}, Steps: []trace.Step{
		step(t, "g1.1.1", "recv", "chan_struct{}#1", "m/health.go:87:8"),
		step(t, "g1.1", "send", "chan_struct{}#1", "m/health.go:40:10"),
	}}
	f := check.Finding{
		Package: "m", Test: "TestStop",
		Anomaly:  predict.Anomaly{Pattern: pat, Events: []int32{7, 8}, Sites: []string{"m/health.go:87:8", "m/health.go:40:10"}},
		Schedule: s,
		Verdict:  replay.Verdict{Verdict: replay.Reproduced, Leaked: []string{"g1.1 in chan send chan_struct{}#1 @m/health.go:40:10", "g1.1.1 in lock @health.go:96"}},
	}
	want := "goroutine g1.1 blocked forever in chan send at health.go:40: its receiver took another branch at health.go:87 and blocks in a lock it holds: g1.1.1 in lock @health.go:96 (deadlock); reproduced"
	if got := pat.ID() + ": " + report.Message(f); !strings.HasSuffix(got, want) {
		t.Errorf("Message:\n got %s\nwant …%s", got, want)
	}
	f.Verdict.Leaked = f.Verdict.Leaked[:1]
	if got := report.Message(f); !strings.Contains(got, "its receiver returned at health.go:87 (leak)") {
		t.Errorf("one goroutine left: %s", got)
	}
}

// TestOnceRunMessage: a deadlock through sync.Once is reported at the
// call of Do made holding the lock, names both calls of Do and the lock,
// and is proved only by the replay's wait-for cycle.
func TestOnceRunMessage(t *testing.T) {
	var pat *pattern.Pattern
	dl, _ := pattern.Builtin("deadlock")
	for _, p := range dl {
		if p.OnceRun() {
			pat = p
		}
	}
	if pat == nil {
		t.Fatal("no deadlock/once-run pattern")
	}
	mk := func(deadlocked []string) check.Finding {
		s := &trace.Schedule{Pattern: "deadlock/once-run", Anomaly: []int{0, 1, 2}, Steps: []trace.Step{
			step(t, "g1.2", "lock", "Relay.mu#1", "oncerun/relay.go:27:11"),
			step(t, "g1.1", "lock", "Listener.once#3", "oncerun/relay.go:50:11"),
			step(t, "g1.2", "lock", "Listener.once#3", "oncerun/relay.go:30:12"),
		}}
		return check.Finding{
			Package: "subjects/oncerun", Test: "TestClose",
			Anomaly: predict.Anomaly{Pattern: pat, Events: []int32{40, 50, 51},
				Sites: []string{"oncerun/relay.go:27:11", "oncerun/relay.go:50:11", "oncerun/relay.go:30:12"}},
			Schedule: s,
			Verdict:  replay.Verdict{Verdict: replay.Reproduced, Deadlocked: deadlocked, Consequence: "the replay deadlocks"},
		}
	}
	f := mk([]string{"g1.1 in Lock Relay.mu#1 @relay.go:52, holding Listener.once#3 (@relay.go:50:11)", "g1.2 in Lock Listener.once#3 @relay.go:30, holding Relay.mu#1 (@relay.go:27:11)"})
	want := "deadlock through sync.Once: g1.2 holds Relay.mu#1 (relay.go:27) and calls Do on Listener.once#3 (relay.go:30) while g1.1's call of Do on it (relay.go:50) runs its function, which waits for Relay.mu#1 (a function run at that call of Do took it, or a lock of its name, in the recorded run), and Do waits for the function; reproduced, the replay deadlocks: g1.1 in Lock Relay.mu#1 @relay.go:52, holding Listener.once#3 (@relay.go:50:11); g1.2 in Lock Listener.once#3 @relay.go:30, holding Relay.mu#1 (@relay.go:27:11)"
	if got := report.Message(f); got != want {
		t.Errorf("Message:\n got %s\nwant %s", got, want)
	}
	if got := report.Site(f).Short(); got != "relay.go:30" {
		t.Errorf("Site %s, want the call of Do made holding the lock, relay.go:30", got)
	}
	if !f.Deadlock() || !f.Effect() {
		t.Error("a reproduced deadlock is its own effect")
	}
	if g := mk(nil); g.Reproduced() || g.Deadlock() {
		t.Error("a finding without Deadlocked counts as proved")
	}
}

// TestOrderMessage: an order violation names the two sections by their
// methods, is reported at the section moved first, and is proved only by
// a panic in the package's code.
func TestOrderMessage(t *testing.T) {
	pat, _ := pattern.Builtin("order")
	s := &trace.Schedule{Pattern: "order/sections", Anomaly: []int{4, 7}, Steps: []trace.Step{
		step(t, "g1.1.1", "region-begin", "ClientConn.handleServiceConfig", "x/conn.go:105:23"),
		step(t, "g1.1", "region-begin", "ClientConn.Close", "x/conn.go:115:23"),
		step(t, "g1.1", "region-begin", "ClientConn.check", "x/conn.go:70:1"),
		step(t, "g1.1", "region-end", "ClientConn.check", "x/conn.go:70:1"),
		step(t, "g1.1", "lock", "ClientConn.mu#1", "x/conn.go:116:12"),
		step(t, "g1.1", "write", "ClientConn.balancerWrapper#1", "x/conn.go:125:5"),
		step(t, "g1.1", "unlock", "ClientConn.mu#1", "x/conn.go:126:14"),
		step(t, "g1.1.1", "lock", "ClientConn.mu#1", "x/conn.go:106:12"),
	}}
	f := check.Finding{
		Package: "x", Test: "TestClose",
		Anomaly: predict.Anomaly{Pattern: pat[0], Events: []int32{40, 20},
			Sites: []string{"x/conn.go:116:12", "x/conn.go:106:12"}},
		Schedule: s,
		Objects:  []string{"ClientConn.mu#1", "ClientConn.mu#1"},
		Verdict: replay.Verdict{Verdict: replay.Reproduced, Panicked: true, PanicAt: "/m/x/conn.go:36",
			Consequence: "panic: runtime error: invalid memory address or nil pointer dereference at conn.go:36"},
	}
	want := "order violation on ClientConn.mu: this section of ClientConn.Close (g1.1) can run before the one of ClientConn.handleServiceConfig (g1.1.1) at conn.go:106, which the recorded run ran first; reproduced, panic: runtime error: invalid memory address or nil pointer dereference at conn.go:36"
	if got := report.Message(f); got != want {
		t.Errorf("Message:\n got %s\nwant %s", got, want)
	}
	if got := report.Site(f).Short(); got != "conn.go:116" {
		t.Errorf("Site %s, want the section moved first, conn.go:116", got)
	}
	if !strings.HasPrefix(report.Headline(f), "order violation (order/sections) on ClientConn.mu: ") {
		t.Errorf("Headline %q", report.Headline(f))
	}
	// A panic in the test proves nothing.
	f.Verdict.PanicAt = "/m/x/conn_test.go:12"
	if f.Reproduced() || f.Effect() {
		t.Error("an order violation proved by a panic in its test")
	}
}
