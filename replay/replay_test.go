package replay_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/dynamic/record"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/replay"
)

// subjects is a module of the evaluation subjects these tests use, copied
// from the corpus (TestOwnOrder with PECANVET_OWN_ORDER=all uses the
// corpus itself).
var subjects, _ = filepath.Abs("testdata/subjects")

func build(t *testing.T, pkgs ...string) *record.Recorder {
	t.Helper()
	if testing.Short() {
		t.Skip("builds instrumented test binaries")
	}
	b, err := record.NewBuild(context.Background(), record.Options{Dir: subjects, Patterns: pkgs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// ownOrder is the schedule that replays a whole recorded trace in its own
// order (its "anomaly" is the last event).
func ownOrder(t *testing.T, tr *trace.Trace) *trace.Schedule {
	t.Helper()
	all := make([]int32, len(tr.Events))
	for i := range all {
		all[i] = int32(i)
	}
	s, err := trace.NewSchedule(tr, "own/order", all, all[len(all)-1:])
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestOwnOrder replays each recorded trace in its own order: every replay
// must be reproduced and record exactly the same events in the same order.
// PECANVET_REPLAY_RUNS (default 3) sets the number of replays per test;
// PECANVET_OWN_ORDER=all runs it on every subject (make eval does, with
// 100 runs).
func TestOwnOrder(t *testing.T) {
	pkgs := []string{"./pecanfig1", "./account", "./loader", "./pingpong", "./airlinefixed", "./sendclosedfixed", "./jigsaw", "./lazyinitfixed"}
	if os.Getenv("PECANVET_OWN_ORDER") == "all" {
		pkgs = []string{"./..."}
		defer func(dir string) { subjects = dir }(subjects)
		subjects, _ = filepath.Abs("../testdata/src")
	}
	runs := 3
	if n, err := strconv.Atoi(os.Getenv("PECANVET_REPLAY_RUNS")); err == nil && n > 0 {
		runs = n
	}
	b := build(t, pkgs...)
	ctx := context.Background()
	dir := t.TempDir()
	tests, total := 0, 0
	for pkg := range b.Binaries {
		names, err := b.Tests(ctx, pkg, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			recPath := filepath.Join(dir, "rec.trace")
			rt := b.RecordTest(ctx, pkg, name, recPath, time.Minute)
			if rt.Events == 0 {
				continue
			}
			tr, err := trace.ReadFile(recPath, trace.ReadOptions{Lenient: true})
			if err != nil {
				t.Fatal(err)
			}
			s := ownOrder(t, tr)
			tests++
			for i := 0; i < runs; i++ {
				v := replay.Run(ctx, b.Build, pkg, name, s, filepath.Join(dir, "r"), replay.Options{})
				if v.Verdict != replay.Reproduced {
					t.Fatalf("%s %s run %d: %s at step %d: %s", pkg, name, i, v.Verdict, v.Step, v.Message)
				}
				got, err := trace.ReadFile(v.Trace, trace.ReadOptions{Lenient: true})
				if err != nil {
					t.Fatal(err)
				}
				if d := equivalent(tr, got); d != "" {
					t.Fatalf("%s %s run %d: replay differs from the recording:\n%s", pkg, name, i, d)
				}
				total++
			}
		}
	}
	t.Logf("%d tests replayed in their own order %d times each (%d replays), all reproduced as the same execution", tests, runs, total)
}

// equivalent says how the replayed trace got differs from the recording
// rec, or "" when they are the same execution: each goroutine did the same
// events, and each object (a goroutine's fork, begin, end and join count as
// operations on that goroutine) saw them in the same order. Events that
// touch nothing in common may be recorded in either order: an unbuffered
// send is granted at its gate, and the next step can be recorded before the
// send returns. Events of the replay past the recording's (replay records
// until the process ends) are not compared.
func equivalent(rec, got *trace.Trace) string {
	line := func(tr *trace.Trace, e trace.Event) string {
		return tr.Goroutines[e.G] + " " + e.Op.String() + " " + tr.ObjName(e) + " " + tr.Site(e)
	}
	key := func(tr *trace.Trace, e trace.Event) string {
		switch e.Op {
		case trace.Begin, trace.End:
			return "g " + tr.Goroutines[e.G]
		case trace.Fork, trace.Join:
			return "g " + tr.ObjName(e)
		}
		if o := tr.ObjName(e); o != "" {
			return "o " + o
		}
		return ""
	}
	want := map[string]int{}
	for _, e := range rec.Events {
		want[rec.Goroutines[e.G]]++
	}
	type seqs struct{ byG, byObj map[string][]string }
	project := func(tr *trace.Trace, limit map[string]int) seqs {
		p := seqs{map[string][]string{}, map[string][]string{}}
		for _, e := range tr.Events {
			g := tr.Goroutines[e.G]
			if limit != nil && len(p.byG[g]) >= limit[g] {
				continue
			}
			l := line(tr, e)
			p.byG[g] = append(p.byG[g], l)
			if k := key(tr, e); k != "" {
				p.byObj[k] = append(p.byObj[k], l)
			}
		}
		return p
	}
	a, b := project(rec, nil), project(got, want)
	// An object touched only by events past the recording's may appear in
	// b's order while its first events are cut: compare objects of a.
	for _, m := range []struct {
		what string
		a, b map[string][]string
	}{{"goroutine", a.byG, b.byG}, {"object", a.byObj, b.byObj}} {
		for k, seq := range m.a {
			if d := firstDiff(seq, m.b[k]); d != "" {
				return m.what + " " + k + ": " + d
			}
		}
	}
	return ""
}

func firstDiff(a, b []string) string {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return "event " + strconv.Itoa(i+1) + ": recorded " + a[i] + ", replayed " + b[i]
		}
	}
	if len(a) != len(b) {
		return fmt.Sprintf("recorded %d events, replayed %d", len(a), len(b))
	}
	return ""
}

func checkPkgs(t *testing.T, pkgs ...string) *check.Report {
	t.Helper()
	if testing.Short() {
		t.Skip("builds instrumented test binaries")
	}
	pats, _ := pattern.Builtin("all")
	rep, err := check.Run(context.Background(), check.Options{Dir: subjects, Patterns: pkgs, Anomalies: pats})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestFigure1 is PECAN Figure 1: the race between the read of y (line 3)
// and the write of y (line 7) is reproduced and the panic reported.
func TestFigure1(t *testing.T) {
	rep := checkPkgs(t, "./pecanfig1")
	if rep.Listed == 0 || rep.Tests != rep.Listed {
		t.Errorf("tests checked %d of %d listed, want all", rep.Tests, rep.Listed)
	}
	ok := false
	for _, f := range rep.Reproduced() {
		if f.Anomaly.Pattern.Kind == "race" && strings.Join(f.Anomaly.Sites, " ") == "pecanfig1/fig1.go:22:4 pecanfig1/fig1.go:13:7" {
			if !f.Verdict.Panicked || !strings.Contains(f.Verdict.Consequence, "ERROR") {
				t.Errorf("race (3,7) reproduced without the panic: %+v", f.Verdict)
			}
			ok = true
		}
	}
	if !ok {
		t.Fatalf("race (3,7) not reproduced; findings: %v", summary(rep))
	}
}

// TestPrunedDiverged: in flagpublishfixed the model predicts a race that
// needs Get to see the flag unset, so it returns early: pruned, nothing
// reported.
func TestPrunedDiverged(t *testing.T) {
	rep := checkPkgs(t, "./flagpublishfixed")
	if r := rep.Reproduced(); len(r) > 0 {
		t.Fatalf("fixed twin reported: %v", summary(rep))
	}
	diverged := 0
	for _, f := range rep.Findings {
		if f.Verdict.Verdict == replay.Diverged {
			diverged++
		}
	}
	if diverged == 0 {
		t.Fatalf("no prediction pruned as diverged: %v", summary(rep))
	}
}

// TestLockViolationPruned replays a schedule edited to put one goroutine's
// critical section inside another's: the replay is pruned as a deadlock
// within the stall time, not hung.
func TestLockViolationPruned(t *testing.T) {
	b := build(t, "./pecanfig1fixed")
	ctx := context.Background()
	pkg := "subjects/pecanfig1fixed"
	dir := t.TempDir()
	rt := b.RecordTest(ctx, pkg, "TestFigure1", filepath.Join(dir, "rec"), time.Minute)
	tr, err := trace.ReadFile(rt.Trace, trace.ReadOptions{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	// Find the two lock events and move the second goroutine's lock right
	// after the first one's.
	var locks []int32
	for i, e := range tr.Events {
		if e.Op == trace.Lock {
			locks = append(locks, int32(i))
		}
	}
	if len(locks) < 2 || tr.Events[locks[0]].G == tr.Events[locks[1]].G {
		t.Fatalf("unexpected trace: %d locks", len(locks))
	}
	// The schedule: everything up to the first lock, then the other
	// goroutine's events up to its lock.
	var order []int32
	for i := int32(0); i <= locks[0]; i++ {
		order = append(order, i)
	}
	g2 := tr.Events[locks[1]].G
	for i := locks[0] + 1; i <= locks[1]; i++ {
		if tr.Events[i].G == g2 {
			order = append(order, i)
		}
	}
	s, err := trace.NewSchedule(tr, "edited/lock", order, []int32{locks[1]})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	v := replay.Run(ctx, b.Build, pkg, "TestFigure1", s, filepath.Join(dir, "r"), replay.Options{Stall: 300 * time.Millisecond, Timeout: 20 * time.Second})
	if v.Verdict != replay.Deadlock {
		t.Fatalf("verdict %s (%s), want deadlock", v.Verdict, v.Message)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("pruning took %v", d)
	}
}

// TestStaleSchedule replays a schedule whose site no longer exists (the
// binary was rebuilt, or the file edited): the verdict names the first
// mismatching step.
func TestStaleSchedule(t *testing.T) {
	b := build(t, "./pecanfig1")
	ctx := context.Background()
	pkg := "subjects/pecanfig1"
	dir := t.TempDir()
	rt := b.RecordTest(ctx, pkg, "TestFigure1", filepath.Join(dir, "rec"), time.Minute)
	tr, err := trace.ReadFile(rt.Trace, trace.ReadOptions{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	s := ownOrder(t, tr)
	// Corrupt a step of the goroutine owning the anomaly (the last event):
	// another goroutine that strays before its part would only be
	// released. Which goroutine that is depends on the recorded order.
	k := -1
	for i, st := range s.Steps {
		if i > 0 && st.G == s.Steps[len(s.Steps)-1].G && st.Site != "" {
			k = i
			break
		}
	}
	if k < 0 {
		t.Fatalf("no step to corrupt in %v", s.Steps)
	}
	s.Steps[k].Site = "pecanfig1/fig1.go:99:1"
	v := replay.Run(ctx, b.Build, pkg, "TestFigure1", s, filepath.Join(dir, "r"), replay.Options{})
	want := fmt.Sprintf("step %d expects", k+1)
	if v.Verdict != replay.Diverged || v.Step != k+1 || !strings.Contains(v.Message, want) {
		t.Fatalf("verdict %+v, want diverged at step %d", v, k+1)
	}
}

func summary(rep *check.Report) []string {
	var out []string
	for _, f := range rep.Findings {
		out = append(out, f.Anomaly.Pattern.ID()+" "+strings.Join(f.Anomaly.Sites, " ")+" → "+f.Verdict.Verdict+" "+f.Verdict.Message)
	}
	return out
}

// lotteryInterrupted is a schedule predicted for lottery (an asv-12 from
// Sold's read) that no run realizes: bob reads sold = 1 before ann's Buy,
// so his Buy never draws. The anomaly's other events all run first, inside
// bob's unit, so the replay ends "interrupted" and only a failing program
// would prove it.
const lotteryInterrupted = `# pecanvet schedule v2
anomaly asv/asv-12 20 24 26 32
g1 fork g1.1 @lottery/lottery_test.go:9:6 n=1
g1.1 begin n=1
g1.1 wg-add TestDraw.wg#1 @lottery/lottery_test.go:12:8 n=1
g1.1 read TestDraw.wg#2 @lottery/lottery_test.go:12:8 n=1
g1.1 fork g1.1.1 @lottery/lottery_test.go:13:2 n=1
g1.1 read TestDraw.l#1 @lottery/lottery_test.go:18:2 n=1
g1.1 region-begin Lottery.Buy @lottery/lottery.go:21:19 n=1
g1.1.1 begin n=1
g1.1.1 sleep @lottery/lottery_test.go:15:13 n=1
g1.1.1 read TestDraw.l#1 @lottery/lottery_test.go:16:3 n=1
g1.1.1 region-begin Lottery.Buy @lottery/lottery.go:21:19 n=1
g1.1.1 lock Lottery.mu#1 @lottery/lottery.go:22:11 n=1
g1.1.1 read Lottery.tickets#1 @lottery/lottery.go:23:23 n=1
g1.1.1 write Lottery.tickets#1 @lottery/lottery.go:23:4 n=1
g1.1.1 read Lottery.sold#1 @lottery/lottery.go:24:4 n=1
g1.1.1 write Lottery.sold#1 @lottery/lottery.go:24:4 n=1
g1.1.1 unlock Lottery.mu#1 @lottery/lottery.go:25:13 n=1
g1.1.1 region-begin Lottery.Sold @lottery/lottery.go:33:19 n=1
g1.1.1 lock Lottery.mu#1 @lottery/lottery.go:34:11 n=1
g1.1.1 read Lottery.sold#1 @lottery/lottery.go:36:11 n=1
g1.1.1 unlock Lottery.mu#1 @lottery/lottery.go:35:19 n=1
g1.1 lock Lottery.mu#1 @lottery/lottery.go:22:11 n=1
g1.1 read Lottery.tickets#1 @lottery/lottery.go:23:23 n=1
g1.1 write Lottery.tickets#1 @lottery/lottery.go:23:4 n=1
g1.1 read Lottery.sold#1 @lottery/lottery.go:24:4 n=1
g1.1 write Lottery.sold#1 @lottery/lottery.go:24:4 n=1
g1.1 unlock Lottery.mu#1 @lottery/lottery.go:25:13 n=1
g1.1.1 region-end Lottery.Sold @lottery/lottery.go:33:19 n=1
g1.1.1 read Lottery.max#1 @lottery/lottery.go:27:19 n=1
g1.1.1 region-begin Lottery.draw @lottery/lottery.go:39:19 n=1
g1.1.1 lock Lottery.mu#1 @lottery/lottery.go:40:11 n=1
g1.1.1 read Lottery.tickets#1 @lottery/lottery.go:43:22 n=1
`

// TestInterruptedPasses: an interrupted anomaly whose test then passes is
// pruned, every time. The replay process must not exit on a verdict
// before its test ends: the driver would read an exit that beats the
// test's end as the test failing, and lottery's check would report this
// schedule in some runs and not under load.
func TestInterruptedPasses(t *testing.T) {
	b := build(t, "./lottery")
	s, err := trace.ParseSchedule(strings.NewReader(lotteryInterrupted), "lottery.sched")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		v := replay.Run(context.Background(), b.Build, "subjects/lottery", "TestDraw", s, filepath.Join(t.TempDir(), "r"), replay.Options{})
		if v.Verdict != replay.Diverged || !v.Passed {
			t.Fatalf("run %d: verdict %s (passed %v, %s; %s), want diverged with the test passing", i+1, v.Verdict, v.Passed, v.Message, v.Consequence)
		}
	}
}

// TestRunBatch replays several schedules in one process: each run in its
// own order is the same execution as the recording, a test listed twice
// runs twice (the binary runs its tests in source order, the list in
// list order per test), and a schedule that fails ends the process: what
// was to come after it did not run.
func TestRunBatch(t *testing.T) {
	b := build(t, "./account")
	ctx := context.Background()
	dir := t.TempDir()
	const pkg = "subjects/account"
	recs := map[string]*trace.Trace{}
	scheds := map[string]string{}
	tests := []string{"TestTransferAndDeposit", "TestWithdraw"}
	out := map[string]chan record.BatchResult{}
	for _, name := range tests {
		out[name] = make(chan record.BatchResult, 1)
	}
	// Recorded as check records them: in one process, each trace ending
	// with its test function, as a replay in a batch does.
	b.RecordBatch(ctx, pkg, tests, dir, time.Minute, nil, out)
	for _, name := range tests {
		recPath := filepath.Join(dir, name+".trace")
		if r := <-out[name]; !r.OK || !r.Test.Batched || r.Test.Events == 0 {
			t.Fatalf("%s: not recorded in the batch: %+v", name, r.Test)
		}
		tr, err := trace.ReadFile(recPath, trace.ReadOptions{Lenient: true})
		if err != nil {
			t.Fatal(err)
		}
		recs[name] = tr
		scheds[name] = filepath.Join(dir, name+".sched")
		f, err := os.Create(scheds[name])
		if err != nil {
			t.Fatal(err)
		}
		s := ownOrder(t, tr)
		if _, err := s.WriteTo(f); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	entry := func(k int, test, sched string) replay.Entry {
		return replay.Entry{Test: test, Sched: scheds[sched], Steps: len(recs[sched].Events), Dir: filepath.Join(dir, fmt.Sprintf("b%d", k))}
	}

	entries := []replay.Entry{
		entry(1, "TestWithdraw", "TestWithdraw"),
		entry(2, "TestTransferAndDeposit", "TestTransferAndDeposit"),
		entry(3, "TestWithdraw", "TestWithdraw"),
	}
	vs, ran := replay.RunBatch(ctx, b.Build, pkg, entries)
	for k, e := range entries {
		if !ran[k] {
			t.Fatalf("entry %d (%s) did not run; %+v", k+1, e.Test, vs)
		}
		if vs[k].Verdict != replay.Reproduced {
			t.Fatalf("entry %d (%s): %s at step %d: %s", k+1, e.Test, vs[k].Verdict, vs[k].Step, vs[k].Message)
		}
		got, err := trace.ReadFile(vs[k].Trace, trace.ReadOptions{Lenient: true})
		if err != nil {
			t.Fatal(err)
		}
		if d := equivalent(recs[e.Test], got); d != "" {
			t.Fatalf("entry %d (%s): replay differs from the recording:\n%s", k+1, e.Test, d)
		}
		if !vs[k].Passed {
			t.Fatalf("entry %d (%s): the test failed:\n%s", k+1, e.Test, vs[k].Output)
		}
	}

	// TestWithdraw under TestTransferAndDeposit's schedule diverges at
	// once; the process exits, and TestWithdraw's second run never comes.
	entries = []replay.Entry{
		entry(4, "TestTransferAndDeposit", "TestTransferAndDeposit"),
		entry(5, "TestWithdraw", "TestTransferAndDeposit"),
		entry(6, "TestWithdraw", "TestWithdraw"),
	}
	vs, ran = replay.RunBatch(ctx, b.Build, pkg, entries)
	if !ran[0] || vs[0].Verdict != replay.Reproduced {
		t.Errorf("entry 1: ran %v, %s (%s), want reproduced", ran[0], vs[0].Verdict, vs[0].Message)
	}
	// Whether TestWithdraw meets a step of the other test's schedule it
	// cannot take (diverged) or returns before the schedule's next step
	// (ended) is a matter of timing: under load it ended (CI, once).
	// Either way the schedule failed, which is what ends the process.
	if !ran[1] || vs[1].Verdict == replay.Reproduced {
		t.Errorf("entry 2: ran %v, %s (%s), want it run and not reproduced", ran[1], vs[1].Verdict, vs[1].Message)
	}
	if ran[2] {
		t.Errorf("entry 3 ran (%s), want not run: the process ends after a failed schedule", vs[2].Verdict)
	}
}

// TestRunBatchDeadline: a batch whose context ends is stopped there, not
// left to run its entries one after the other, and the entry it cut
// short did not run (it is no failing test). Forty replays of
// wgwrongadd's test (about 10 ms each: its sleeps are virtual) get 40 ms,
// process start included; a batch whose context has ended runs nothing
// (it started the process, which ran an entry or two before the kill in
// 5 of 100 batches at load 50).
func TestRunBatchDeadline(t *testing.T) {
	b := build(t, "./wgwrongadd")
	dir := t.TempDir()
	const pkg, test = "subjects/wgwrongadd", "TestFetchAll"
	out := map[string]chan record.BatchResult{test: make(chan record.BatchResult, 1)}
	b.RecordBatch(context.Background(), pkg, []string{test}, dir, time.Minute, nil, out)
	r := <-out[test]
	if !r.OK || r.Test.Events == 0 {
		t.Fatalf("not recorded: %+v", r.Test)
	}
	tr, err := trace.ReadFile(filepath.Join(dir, test+".trace"), trace.ReadOptions{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	sched := filepath.Join(dir, "own.sched")
	f, err := os.Create(sched)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ownOrder(t, tr).WriteTo(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// Forty runs: ten took 0.4-1 s at load 45, so a kill late by a few
	// hundred ms on a loaded machine could come after all ten.
	const n = 40
	var entries []replay.Entry
	for k := 0; k < n; k++ {
		entries = append(entries, replay.Entry{Test: test, Sched: sched, Steps: len(tr.Events), Dir: filepath.Join(dir, fmt.Sprintf("d%d", k))})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	vs, ran := replay.RunBatch(ctx, b.Build, pkg, entries)
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("the batch took %v past its 40 ms context", d)
	}
	if ran[n-1] {
		t.Errorf("all %d runs ran in 40 ms: %+v", n, vs)
	}
	for k := range entries {
		if ran[k] && (!vs[k].Passed || vs[k].Verdict != replay.Reproduced) {
			t.Errorf("entry %d ran: %s, passed %v (%s); want its own order reproduced, passing", k+1, vs[k].Verdict, vs[k].Passed, vs[k].Message)
		}
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	for k := range entries {
		entries[k].Dir += "-cancelled"
	}
	if _, ran := replay.RunBatch(ctx, b.Build, pkg, entries); slices.Contains(ran, true) {
		t.Errorf("a batch with its context ended ran %v", ran)
	}
}
