package check

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/predict/schedule"
	"github.com/pecanvet/pecanvet/replay"
)

// sleepTrace is sturdyc's shape: the refresh goroutine g2 deletes a
// record, the test g1 sleeps (at sleepSite) and then counts.
func sleepTrace(sleepSite string) *trace.Trace {
	tr := &trace.Trace{Tables: trace.Tables{
		Goroutines: []string{"g1", "g2"},
		Objects:    []string{"m"},
		Sites:      []string{sleepSite, "shard.go:208", "shard.go:45"},
	}}
	tr.Events = []trace.Event{
		{G: 1, Op: trace.Write, Obj: 0, Site: 1}, // g2 deletes
		{G: 0, Op: trace.Sleep, Obj: trace.NoIndex, Site: 0},
		{G: 0, Op: trace.Read, Obj: 0, Site: 2}, // g1 counts
		{G: 0, Op: trace.Read, Obj: 0, Site: 2},
	}
	return tr
}

func TestTestSleeps(t *testing.T) {
	ws := testSleeps(sleepTrace("fetch_test.go:682:12"))
	if len(ws) != 1 {
		t.Fatalf("testSleeps = %v, want one window", ws)
	}
	want := sleepWindow{next: stepKey{"g1", trace.Read, "shard.go:45", 1}, late: []stepKey{{"g2", trace.Write, "shard.go:208", 1}}}
	if w := ws[0]; w.next != want.next || len(w.late) != 1 || w.late[0] != want.late[0] {
		t.Errorf("window = %+v, want %+v", w, want)
	}
	// A sleep in the program (pecanfig1's Second) is the program's order.
	if ws := testSleeps(sleepTrace("fig1.go:47:28")); len(ws) != 0 {
		t.Errorf("program sleep: testSleeps = %v, want none", ws)
	}
}

func TestOverrunsSleep(t *testing.T) {
	ws := testSleeps(sleepTrace("fetch_test.go:682:12"))
	del := trace.Step{G: "g2", Op: trace.Write, Obj: "m", Site: "shard.go:208", N: 1}
	sl := trace.Step{G: "g1", Op: trace.Sleep, Site: "fetch_test.go:682:12", N: 1}
	r1 := trace.Step{G: "g1", Op: trace.Read, Obj: "m", Site: "shard.go:45", N: 1}
	r2 := trace.Step{G: "g1", Op: trace.Read, Obj: "m", Site: "shard.go:45", N: 2}
	both := map[string]bool{"g1": true, "g2": true}
	for _, tc := range []struct {
		name  string
		steps []trace.Step
		gs    map[string]bool
		want  bool
	}{
		{"as recorded", []trace.Step{del, sl, r1, r2}, both, false},
		{"delete held past the sleep", []trace.Step{sl, r1, del, r2}, both, true},
		{"delete left to the end", []trace.Step{sl, r1, r2}, both, true},
		{"not the anomaly's goroutine", []trace.Step{sl, r1, del, r2}, map[string]bool{"g1": true}, false},
		{"the test not woken in the schedule", []trace.Step{sl, del}, both, false},
	} {
		s := &trace.Schedule{Steps: tc.steps}
		if got := overrunsSleep(s, ws, tc.gs); got != tc.want {
			t.Errorf("%s: overrunsSleep = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestControlledSleep: a failure that a serial order, holding the other
// goroutine past the test's sleep with the unit whole, shows at the same
// checks is the test's timing (sturdyc, go-cron); without the rule, or
// when that order passes or fails elsewhere, the effect stands.
func TestControlledSleep(t *testing.T) {
	s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		{G: "g1", Op: trace.Read, Site: "a"}, {G: "g2", Op: trace.Write, Site: "b"}, {G: "g1", Op: trace.Read, Site: "c"},
	}, Anomaly: []int{0, 1, 2}}
	cs := serialControls(s, []int{1, 2, 1}, []int{1, 2, 1})
	fail := func(msg string) replay.Verdict {
		return replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: " + msg}
	}
	v := fail("fetch_test.go:686: expected cache to have 3 records, got 3")
	pass := replay.Verdict{Verdict: replay.Reproduced, Passed: true}
	for _, tc := range []struct {
		name    string
		over    []bool // schedule, before, after overrun a test sleep
		results map[string]replay.Verdict
		want    bool
		runs    string
	}{
		// go-cron: the Advance before the loop's read and its timer.
		{"before overruns, fails alike", []bool{true, true, false}, map[string]replay.Verdict{"before": v, "after": pass}, true, "before after"},
		// sturdyc: the refresh after the count; its message counts again.
		{"after overruns, same check", []bool{true, false, true}, map[string]replay.Verdict{"before": pass, "after": fail("fetch_test.go:686: expected cache to have 3 records, got 5")}, true, "before after"},
		{"rule off", nil, map[string]replay.Verdict{"before": pass, "after": fail("fetch_test.go:686: expected cache to have 3 records, got 5")}, false, "before repeat unheld"},
		// A lost update: the late serial order passes.
		{"overrunning order passes", []bool{true, false, true}, map[string]replay.Verdict{"before": pass, "after": pass}, false, "before after repeat unheld"},
		{"overrunning order fails elsewhere", []bool{true, false, true}, map[string]replay.Verdict{"before": pass, "after": fail("fetch_test.go:700: boom")}, false, "before after repeat unheld"},
		// pecanfig1: the sleep is the program's, no window.
		{"schedule overruns nothing", []bool{false, true, true}, map[string]replay.Verdict{"before": v, "after": pass}, false, "before after repeat unheld"},
		{"overrunning order panics", []bool{true, false, true}, map[string]replay.Verdict{"before": pass, "after": {Verdict: replay.Reproduced, Panicked: true, Consequence: "panic: x"}}, false, "before after repeat unheld"},
	} {
		var overrun func(*trace.Schedule) bool
		if tc.over != nil {
			overrun = func(c *trace.Schedule) bool {
				switch c {
				case s:
					return tc.over[0]
				case cs[0]:
					return tc.over[1]
				case cs[1]:
					return tc.over[2]
				}
				return false
			}
		}
		var runs []string
		got := controlled(cs, nil, -1, s, v, "", false, overrun, func(name, _ string, _ *trace.Schedule) (replay.Verdict, bool) {
			runs = append(runs, name)
			if r, ok := tc.results[name]; ok {
				return r, true
			}
			return v, true // repeat and unheld fail as the schedule did
		})
		if (got != "") != tc.want || strings.Join(runs, " ") != tc.runs {
			t.Errorf("%s: controlled = %q after %v, want a reason %v after %s", tc.name, got, runs, tc.want, tc.runs)
		}
	}
}

// TestStraddles: account's "after" order (Deposit's unit whole, Transfer's
// write of bob's balance after it, its read before) still interleaves
// Transfer's unit; gauge's puts the Reset inside the long call, which the
// anomaly does not name. A goroutine between calls, or in a call that
// touches the objects on one side only, does not straddle.
func TestStraddles(t *testing.T) {
	rb := func(g, name string) trace.Step { return trace.Step{G: g, Op: trace.RegionBegin, Obj: name} }
	re := func(g, name string) trace.Step { return trace.Step{G: g, Op: trace.RegionEnd, Obj: name} }
	rd := func(g, obj string) trace.Step { return trace.Step{G: g, Op: trace.Read, Obj: obj} }
	wr := func(g, obj string) trace.Step { return trace.Step{G: g, Op: trace.Write, Obj: obj} }
	// The schedule: Deposit (g2) reads, Transfer (g1) writes, Deposit writes.
	s := &trace.Schedule{Steps: []trace.Step{
		rb("g1", "Transfer"), rd("g1", "bal"), rb("g2", "Deposit"), rd("g2", "bal"), wr("g1", "bal"), re("g1", "Transfer"), wr("g2", "bal"), re("g2", "Deposit"),
	}, Anomaly: []int{3, 4, 6}}
	for _, tc := range []struct {
		name  string
		steps []trace.Step
		at    int // the local unit's first step
		want  bool
	}{
		{"Transfer split by Deposit", []trace.Step{rb("g1", "Transfer"), rd("g1", "bal"), rb("g2", "Deposit"), rd("g2", "bal"), wr("g2", "bal"), re("g2", "Deposit")}, 3, true},
		{"Transfer whole before", []trace.Step{rb("g1", "Transfer"), rd("g1", "bal"), wr("g1", "bal"), re("g1", "Transfer"), rb("g2", "Deposit"), rd("g2", "bal"), wr("g2", "bal"), re("g2", "Deposit")}, 5, false},
		{"Transfer not begun", []trace.Step{rb("g2", "Deposit"), rd("g2", "bal"), wr("g2", "bal"), re("g2", "Deposit")}, 1, false},
	} {
		c := &trace.Schedule{Steps: tc.steps, Anomaly: []int{tc.at}}
		if got := straddles(c, s); got != tc.want {
			t.Errorf("%s: straddles = %v, want %v", tc.name, got, tc.want)
		}
	}
	// gauge: g3 (the long call, not in the anomaly) began and touched the
	// gauge, and its call is still open when the schedule ends.
	g := &trace.Schedule{Steps: []trace.Step{
		rb("g3", "Run"), wr("g3", "running"), rb("g2", "Run"), wr("g2", "running"), wr("g1", "running"), wr("g2", "running"),
	}, Anomaly: []int{3, 4, 5}}
	c := &trace.Schedule{Steps: []trace.Step{rb("g3", "Run"), wr("g3", "running"), wr("g1", "running"), rb("g2", "Run"), wr("g2", "running"), wr("g2", "running")}, Anomaly: []int{4, 5}}
	if !straddles(c, g) {
		t.Errorf("gauge: straddles = false, want true (the long call is open across the unit)")
	}
}

// TestControlledSleepStraddle: the after order that overruns the sleep
// still splits the remote goroutine's call (it read x before the unit and
// writes it after): its failure may be that call's own atomicity
// violation, and the effect stands.
func TestControlledSleepStraddle(t *testing.T) {
	s := splitCall()
	cs := serialControls(s, []int{1, 2, 1}, []int{1, 2, 1})
	if len(cs) != 2 || !straddles(cs[1], s) || straddles(cs[0], s) {
		t.Fatalf("controls %v: want the after order alone to straddle", cs)
	}
	v := replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: x_test.go:9: got 1"}
	pass := replay.Verdict{Verdict: replay.Reproduced, Passed: true}
	var runs []string
	got := controlled(cs, nil, -1, s, v, "", false, func(*trace.Schedule) bool { return true }, func(name, _ string, _ *trace.Schedule) (replay.Verdict, bool) {
		runs = append(runs, name)
		if name == "before" {
			return pass, true
		}
		return v, true
	})
	if got != "" || strings.Join(runs, " ") != "before after repeat unheld" {
		t.Errorf("controlled = %q after %v, want none after before after repeat unheld", got, runs)
	}
}

// TestStraddlesRun: straddles judged on the control's own replay. The
// rest of an open call is read from the trace, past the schedule's end,
// where straddles must assume it touches the objects.
func TestStraddlesRun(t *testing.T) {
	ev := func(g string, op trace.Op, obj, site string) trace.Step {
		return trace.Step{G: g, Op: op, Obj: obj, Site: site}
	}
	// text writes steps as a trace, numbering their occurrences; the
	// first n are the control's schedule.
	text := func(steps []trace.Step) (string, []trace.Step) {
		var b strings.Builder
		b.WriteString("# pecanvet trace v1\n")
		occ := map[string]int{}
		out := make([]trace.Step, len(steps))
		for i, st := range steps {
			k := st.G + " " + st.Op.String() + " " + st.Site
			occ[k]++
			st.N = occ[k]
			out[i] = st
			b.WriteString(st.G + " " + st.Op.String())
			if st.Obj != "" {
				b.WriteString(" " + st.Obj)
			}
			b.WriteString(" @" + st.Site + "\n")
		}
		return b.String(), out
	}
	// run replays control steps cs (anomaly: the unit's steps) as the
	// trace steps, the control's replay.
	run := func(t *testing.T, s *trace.Schedule, cs, steps []trace.Step, anomaly []int) (got, bySchedule bool) {
		t.Helper()
		txt, _ := text(steps)
		_, numbered := text(cs)
		path := filepath.Join(t.TempDir(), "replay.trace")
		if err := os.WriteFile(path, []byte(txt), 0o644); err != nil {
			t.Fatal(err)
		}
		c := &trace.Schedule{Pattern: s.Pattern, Steps: numbered, Anomaly: anomaly}
		return straddlesRun(path, c, s), straddles(c, s)
	}

	// go-cron's "before" order: the test's Advance (g2) writes the fake
	// clock under its lock, then the run loop (g1) reads it twice (Now,
	// then NewTimer); the schedule ends there, inside Advance's region.
	advB := ev("g2", trace.RegionBegin, "FakeClock.Advance", "clock.go:123:21")
	advW := ev("g2", trace.Write, "Time.wall#1", "clock.go:127:4")
	advE := ev("g2", trace.RegionEnd, "FakeClock.Advance", "clock.go:123:21")
	now := ev("g1", trace.Read, "Time.wall#1", "clock.go:83:11")
	timer := ev("g1", trace.Read, "Time.wall#1", "clock.go:93:16")
	cronS := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{now, advB, advW, timer}, Anomaly: []int{0, 2, 3}}
	for _, tc := range []struct {
		name  string
		steps []trace.Step
		want  bool
	}{
		// Past the schedule's end Advance only returns.
		{"the call's tail touches nothing", []trace.Step{advB, advW, now, timer, advE}, false},
		// Its tail reads the clock again after the unit armed its timer.
		{"the call's tail reads the clock", []trace.Step{advB, advW, now, timer, ev("g2", trace.Read, "Time.wall#1", "clock.go:169:30"), advE}, true},
		// The trace ends inside Advance: its tail is unknown.
		{"the call never ends", []trace.Step{advB, advW, now, timer}, true},
	} {
		got, old := run(t, cronS, tc.steps[:4], tc.steps, []int{2, 3})
		if got != tc.want || !old {
			t.Errorf("go-cron, %s: straddlesRun = %v (straddles %v), want %v (straddles true)", tc.name, got, old, tc.want)
		}
	}

	// sturdyc's "after" order: the refresh (g2) looked record 1 up,
	// the test (g1) then counted both shards, and the refresh deleted
	// from them after the count, past the schedule's end.
	refB := ev("g2", trace.RegionBegin, "Client.refreshBatch", "refresh.go:22:21")
	refE := ev("g2", trace.RegionEnd, "Client.refreshBatch", "refresh.go:22:21")
	get := ev("g2", trace.Read, "map#1", "shard.go:117:23")
	del1 := ev("g2", trace.Write, "map#1", "shard.go:208:8")
	del2 := ev("g2", trace.Write, "map#2", "shard.go:208:8")
	size1 := ev("g1", trace.Read, "map#1", "shard.go:45:12")
	size2 := ev("g1", trace.Read, "map#2", "shard.go:45:12")
	check := ev("g1", trace.Read, "testing.T#1", "fetch_test.go:686:11")
	sturdyS := &trace.Schedule{Pattern: "asv/asv-11", Steps: []trace.Step{refB, get, size1, del1, del2, size2, refE}, Anomaly: []int{2, 3, 4, 5}}
	// A transfer (g2) that debits account 1 before the unit and credits
	// account 2 after it: the unit sees it half done.
	debit := ev("g2", trace.Write, "map#1", "bank.go:10:3")
	credit := ev("g2", trace.Write, "map#2", "bank.go:14:3")
	// A deposit's unit (g1) that reads and writes the balance the call
	// read before it and writes after it: the lost update.
	depR := ev("g1", trace.Read, "map#1", "bank.go:20:3")
	depW := ev("g1", trace.Write, "map#1", "bank.go:21:3")
	for _, tc := range []struct {
		name  string
		steps []trace.Step
		want  bool
	}{
		{"the head only read what the unit only read", []trace.Step{refB, get, size1, size2, check, del1, del2, refE}, false},
		// The test returned before the refresh went on.
		{"the call open at the trace's end", []trace.Step{refB, get, size1, size2, check}, false},
		{"the head wrote what the unit read", []trace.Step{refB, debit, size1, size2, check, credit, refE}, true},
		{"the head wrote, the call open at the end", []trace.Step{refB, debit, size1, size2, check}, true},
		{"the head read what the unit wrote", []trace.Step{refB, get, depR, depW, del1, refE}, true},
		// The refresh deleted from both shards between the two counts
		// and returned: the unit is not whole.
		{"the tail inside the unit", []trace.Step{refB, get, size1, del1, del2, refE, size2, check}, true},
		// It deleted from the second shard only after the count.
		{"the tail after the unit", []trace.Step{refB, get, size1, size2, del1, del2, refE}, false},
	} {
		// The control: the call's head, then the unit.
		cs := []trace.Step{tc.steps[0], tc.steps[1]}
		for _, st := range tc.steps {
			if st.G == "g1" && len(cs) < 4 {
				cs = append(cs, st)
			}
		}
		got, old := run(t, sturdyS, cs, tc.steps, []int{2, 3})
		if got != tc.want || !old {
			t.Errorf("sturdyc, %s: straddlesRun = %v (straddles %v), want %v (straddles true)", tc.name, got, old, tc.want)
		}
	}

	// linkedlist's "before" order for the asv on tail and size: the other
	// AddLast (g2) ran whole before the unit (this AddLast's writes of
	// tail and size), but after this call had read tail: its own call is
	// split, the lost update again. The other AddLast whole before this
	// call began is a serial order.
	addB := ev("g1", trace.RegionBegin, "List.AddLast", "linkedlist.go:24:19")
	addE := ev("g1", trace.RegionEnd, "List.AddLast", "linkedlist.go:24:19")
	readTail := ev("g1", trace.Read, "List.tail#1", "linkedlist.go:25:32")
	writeTail := ev("g1", trace.Write, "List.tail#1", "linkedlist.go:31:4")
	writeSize := ev("g1", trace.Write, "List.size#1", "linkedlist.go:32:4")
	other := []trace.Step{
		ev("g2", trace.RegionBegin, "List.AddLast", "linkedlist.go:24:19"), ev("g2", trace.Read, "List.tail#1", "linkedlist.go:25:32"),
		ev("g2", trace.Write, "List.tail#1", "linkedlist.go:31:4"), ev("g2", trace.Write, "List.size#1", "linkedlist.go:32:4"),
	}
	otherEnd := ev("g2", trace.RegionEnd, "List.AddLast", "linkedlist.go:24:19")
	listS := &trace.Schedule{Pattern: "asv/asv-6", Steps: slices.Concat([]trace.Step{addB, readTail, writeTail}, other, []trace.Step{writeSize}), Anomaly: []int{2, 5, 6, 7}}
	for _, tc := range []struct {
		name  string
		steps []trace.Step
		want  bool
	}{
		{"the other call inside this one, before the unit", slices.Concat([]trace.Step{addB, readTail}, other, []trace.Step{writeTail, writeSize, addE, otherEnd}), true},
		{"the other call before this one", slices.Concat(other, []trace.Step{otherEnd, addB, readTail, writeTail, writeSize, addE}), false},
	} {
		at := slices.Index(tc.steps, writeTail)
		cs := slices.Concat(tc.steps[:at], []trace.Step{writeSize})
		cs = slices.DeleteFunc(cs, func(st trace.Step) bool { return st == otherEnd || st == addE })
		an := []int{slices.Index(cs, writeTail)}
		if an[0] < 0 {
			an[0] = len(cs)
			cs = append(cs[:len(cs)-1], writeTail, writeSize)
		}
		an = append(an, an[0]+1)
		got, _ := run(t, listS, cs, tc.steps, an)
		if got != tc.want {
			t.Errorf("linkedlist, %s: straddlesRun = %v, want %v", tc.name, got, tc.want)
		}
	}

	// No trace, or one that does not show the unit: the schedules decide.
	c := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{advB, advW, now, timer}, Anomaly: []int{2, 3}}
	if !straddlesRun("", c, cronS) || !straddlesRun(filepath.Join(t.TempDir(), "none"), c, cronS) {
		t.Error("no trace: straddlesRun = false, want straddles's true")
	}
}

// TestControlledSleepRun: controlled judges the straddle on the serial
// order's own replay (straddlesOf gets its trace): the after order that
// the schedules call split counts when its run shows the call whole.
func TestControlledSleepRun(t *testing.T) {
	s := splitCall()
	cs := serialControls(s, []int{1, 2, 1}, []int{1, 2, 1})
	v := replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: x_test.go:9: got 1"}
	pass := replay.Verdict{Verdict: replay.Reproduced, Passed: true}
	defer func() { straddlesOf = straddlesRun }()
	for _, whole := range []bool{true, false} {
		var paths []string
		straddlesOf = func(path string, c, _ *trace.Schedule) bool {
			paths = append(paths, path)
			return !whole
		}
		got := controlled(cs, nil, -1, s, v, "", false, func(*trace.Schedule) bool { return true }, func(name, _ string, _ *trace.Schedule) (replay.Verdict, bool) {
			if name == "before" {
				return pass, true
			}
			r := v
			r.Trace = name + ".trace"
			return r, true
		})
		if (got != "") != whole || !slices.Equal(paths, []string{"after.trace"}) {
			t.Errorf("call whole in the run %v: controlled = %q, straddle judged on %v, want a reason %v, judged on [after.trace]", whole, got, paths, whole)
		}
	}
}

// TestControlledSleepValues: a serial order that fails the same checks
// with other values counts only by the schedules' judgment of the split,
// even when its run shows the other call whole: pool's
// TestBorrowThenSetFactory failed "db2 cannot activate a connection of
// db1" (the unit mixed two factories), its before order "from:db2", and
// the effect stands. The same message counts by the run's judgment.
func TestControlledSleepValues(t *testing.T) {
	// The other goroutine's SetFactory is still open where s ends.
	s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		{G: "g2", Op: trace.RegionBegin, Obj: "SetFactory"}, {G: "g2", Op: trace.Write, Obj: "idle", Site: "pool.go:79"},
		{G: "g1", Op: trace.Read, Obj: "factory", Site: "pool.go:46"}, {G: "g2", Op: trace.Write, Obj: "factory", Site: "pool.go:80"}, {G: "g1", Op: trace.Read, Obj: "factory", Site: "pool.go:50"},
	}, Anomaly: []int{2, 3, 4}}
	cs := serialControls(s, []int{1, 2, 1}, []int{1, 2, 1})
	if len(cs) != 2 || !straddles(cs[0], s) {
		t.Fatalf("controls %v: want the before order split by the schedules", cs)
	}
	fail := func(msg string) replay.Verdict {
		return replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: " + msg}
	}
	v := fail("pool_test.go:59: Borrow = <nil>, db2 cannot activate a connection of db1")
	pass := replay.Verdict{Verdict: replay.Reproduced, Passed: true}
	defer func() { straddlesOf = straddlesRun }()
	straddlesOf = func(string, *trace.Schedule, *trace.Schedule) bool { return false }
	for _, tc := range []struct {
		name   string
		before replay.Verdict
		want   bool
	}{
		{"same check, other values", fail("pool_test.go:59: Borrow = &{from:db2 active:true}, <nil>"), false},
		{"same failure", v, true},
	} {
		got := controlled(cs, nil, -1, s, v, "", false, func(c *trace.Schedule) bool { return c != cs[1] }, func(name, _ string, _ *trace.Schedule) (replay.Verdict, bool) {
			switch name {
			case "before":
				return tc.before, true
			case "after":
				return pass, true
			}
			return v, true // repeat and unheld fail as the schedule did
		})
		if (got != "") != tc.want {
			t.Errorf("%s: controlled = %q, want a reason %v", tc.name, got, tc.want)
		}
	}
}

// TestControlledSleepPasses: the after order, run because it overruns a
// sleep after a before order that passed, does not undo that pass when
// it did not run through: the repeat still decides, as when the after
// order did not run.
func TestControlledSleepPasses(t *testing.T) {
	s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		{G: "g1", Op: trace.Read, Site: "a"}, {G: "g2", Op: trace.Write, Site: "b"}, {G: "g1", Op: trace.Read, Site: "c"},
	}, Anomaly: []int{0, 1, 2}}
	cs := serialControls(s, []int{1, 2, 1}, []int{1, 2, 1})
	v := replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: x_test.go:9: got 1"}
	pass := replay.Verdict{Verdict: replay.Reproduced, Passed: true}
	var runs []string
	got := controlled(cs, nil, -1, s, v, "", false, func(c *trace.Schedule) bool { return c != cs[0] }, func(name, _ string, _ *trace.Schedule) (replay.Verdict, bool) {
		runs = append(runs, name)
		switch name {
		case "before", "repeat":
			return pass, true
		case "after":
			return replay.Verdict{Verdict: replay.Diverged, Step: 1}, true
		}
		return v, true
	})
	if got == "" || strings.Join(runs, " ") != "before after repeat" {
		t.Errorf("controlled = %q after %v, want a reason after before after repeat", got, runs)
	}
}

// splitCall is an RWR whose remote write sits in a call (T) that read x
// before the unit: the serial order after the unit splits that call.
func splitCall() *trace.Schedule {
	return &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		{G: "g2", Op: trace.RegionBegin, Obj: "T"}, {G: "g2", Op: trace.Read, Obj: "x", Site: "r"},
		{G: "g1", Op: trace.Read, Obj: "x", Site: "a"}, {G: "g2", Op: trace.Write, Obj: "x", Site: "b"}, {G: "g1", Op: trace.Read, Obj: "x", Site: "c"},
		{G: "g2", Op: trace.RegionEnd, Obj: "T"},
	}, Anomaly: []int{2, 3, 4}}
}

// sizeCount is sturdyc's count under a refresh: the test's Size (g1)
// reads shard a under its read lock, the refresh (g2), which looked a up
// before, deletes from a and
// b between, each under the shard's lock, and Size reads b, whose read
// lock it still holds where the schedule ends.
func sizeCount() (*trace.Schedule, []trace.Step) {
	s := &trace.Schedule{Pattern: "asv/asv-11", Steps: []trace.Step{
		{G: "g2", Op: trace.RegionBegin, Obj: "refresh", Site: "r", N: 1},
		{G: "g2", Op: trace.Read, Obj: "a", Site: "shard.go:117", N: 1}, // the refresh's lookup
		{G: "g1", Op: trace.RLock, Obj: "a.mu", Site: "shard.go:44", N: 1},
		{G: "g1", Op: trace.Read, Obj: "a", Site: "shard.go:45", N: 1},
		{G: "g1", Op: trace.RUnlock, Obj: "a.mu", Site: "shard.go:44", N: 1},
		{G: "g2", Op: trace.Lock, Obj: "a.mu", Site: "shard.go:206", N: 1},
		{G: "g2", Op: trace.Write, Obj: "a", Site: "shard.go:208", N: 1},
		{G: "g2", Op: trace.Unlock, Obj: "a.mu", Site: "shard.go:207", N: 1},
		{G: "g2", Op: trace.Lock, Obj: "b.mu", Site: "shard.go:206", N: 2},
		{G: "g2", Op: trace.Write, Obj: "b", Site: "shard.go:208", N: 2},
		{G: "g2", Op: trace.Unlock, Obj: "b.mu", Site: "shard.go:207", N: 2},
		{G: "g1", Op: trace.RLock, Obj: "b.mu", Site: "shard.go:44", N: 2},
		{G: "g1", Op: trace.Read, Obj: "b", Site: "shard.go:45", N: 2},
	}, Anomaly: []int{3, 6, 9, 12}}
	tail := []trace.Step{
		{G: "g1", Op: trace.RUnlock, Obj: "b.mu", Site: "shard.go:44"},
		{G: "g1", Op: trace.RegionEnd, Obj: "size", Site: "shard.go:42"},
	}
	return s, tail
}

// TestReleaseOrder: the remote steps follow the unit's release of its
// locks, the local goroutine's tail numbered on from the schedule, the
// anomaly line the local events; none without a release in the tail.
func TestReleaseOrder(t *testing.T) {
	s, tail := sizeCount()
	T, AR := []int{1, 2, 2, 1}, []int{1, 2, 2, 1}
	c := releaseOrder(s, T, AR, tail)
	if c == nil {
		t.Fatal("releaseOrder = nil")
	}
	var got []string
	for _, st := range c.Steps {
		got = append(got, fmt.Sprintf("%s %s %s %d", st.G, st.Op, st.Obj, st.N))
	}
	want := []string{
		"g2 region-begin refresh 1", "g2 read a 1", // before the unit
		"g1 rlock a.mu 1", "g1 read a 1", "g1 runlock a.mu 1", "g1 rlock b.mu 2", "g1 read b 2",
		"g1 runlock b.mu 2", // the tail up to the release, counted on
		"g2 lock a.mu 1", "g2 write a 1", "g2 unlock a.mu 1", "g2 lock b.mu 2", "g2 write b 2", "g2 unlock b.mu 2",
	}
	if !slices.Equal(got, want) {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Equal(c.Anomaly, []int{3, 6}) {
		t.Errorf("anomaly = %v, want [3 6]", c.Anomaly)
	}
	if c := releaseOrder(s, T, AR, tail[1:]); c != nil {
		t.Errorf("tail without the release: %v, want nil", c.Steps)
	}
	if c := releaseOrder(s, T, AR, nil); c != nil {
		t.Error("no tail: want nil")
	}
}

// TestControlledRelease: the after order fails the schedule's check with
// other values (its remote steps ran free after the test's next count);
// the release order, which runs them right after the unit, decides: the
// very message, the unit whole in its run, is the sleep's; other values
// (a count no serial order gives) or a split keep the effect. It runs
// only when the after order failed at the same checks otherwise.
func TestControlledRelease(t *testing.T) {
	s, tail := sizeCount()
	T, AR := []int{1, 2, 2, 1}, []int{1, 2, 2, 1}
	cs := serialControls(s, T, AR)
	rel := releaseOrder(s, T, AR, tail)
	fail := func(msg string) replay.Verdict {
		return replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: fetch_test.go:686: expected 3 records, got " + msg}
	}
	v := fail("3")
	pass := replay.Verdict{Verdict: replay.Reproduced, Passed: true}
	defer func() { straddlesOf = straddlesRun }()
	for _, tc := range []struct {
		name         string
		after, rel   replay.Verdict
		split        bool
		want         bool
		wantReleased bool
	}{
		{"very message, whole", fail("5"), v, false, true, true},
		{"very message, split", fail("5"), v, true, false, true},
		{"other values", fail("5"), fail("4"), false, false, true},
		{"diverged", fail("5"), replay.Verdict{Verdict: replay.Diverged, Goroutine: "g1", Step: 6, Consequence: v.Consequence}, false, false, true},
		{"after passes", pass, v, false, false, false},
	} {
		straddlesOf = func(string, *trace.Schedule, *trace.Schedule) bool { return tc.split }
		released := false
		got := controlled(cs, rel, -1, s, v, "", false, func(*trace.Schedule) bool { return true }, func(name, _ string, c *trace.Schedule) (replay.Verdict, bool) {
			switch name {
			case "before":
				return pass, true
			case "after":
				return tc.after, true
			case releaseName:
				released = c == rel
				return tc.rel, true
			}
			return v, true // repeat and unheld fail as the schedule did
		})
		if (got != "") != tc.want || released != tc.wantReleased {
			t.Errorf("%s: controlled = %q, release order run %v, want a reason %v, run %v", tc.name, got, released, tc.want, tc.wantReleased)
		}
	}
}

// tickTrace is asynccache's TestGetOK: the ticker goroutine g2 waits on
// its ticker, the test g1 sleeps (at sleepSite), sets ret and Gets
// (load), and only then the tick arrives and g2 stores twice.
func tickTrace(sleepSite string) *trace.Trace {
	tr := &trace.Trace{Tables: trace.Tables{
		Goroutines: []string{"g1", "g2"},
		Objects:    []string{"stop", "ret", "val", "err", "tick"},
		Sites:      []string{sleepSite, "x_test.go:43", "cache.go:180", "cache.go:285", "cache.go:107", "cache.go:61", "cache.go:300"},
	}}
	tr.Events = []trace.Event{
		{G: 1, Op: trace.Read, Obj: 0, Site: 6},
		{G: 0, Op: trace.Sleep, Obj: trace.NoIndex, Site: 0},
		{G: 0, Op: trace.Write, Obj: 1, Site: 1},
		{G: 0, Op: trace.AtomicLoad, Obj: 2, Site: 2}, // the Get
		{G: 1, Op: trace.Recv, Obj: 4, Site: 3},       // the tick
		{G: 1, Op: trace.AtomicStore, Obj: 2, Site: 4},
		{G: 1, Op: trace.AtomicStore, Obj: 3, Site: 5},
	}
	return tr
}

// TestTimerPastSleep: the schedule fires the ticker past the recorded
// order while the test, woken from its sleep, is held with a step the
// recording ran before the tick.
func TestTimerPastSleep(t *testing.T) {
	both := map[string]bool{"g1": true, "g2": true}
	for _, tc := range []struct {
		name  string
		site  string
		tail  []int32
		fired []int
		gs    map[string]bool
		want  int
	}{
		{"the tick ahead of the Get", "x_test.go:42:12", []int32{4, 5, 3, 6}, []int{3}, both, 3},
		{"the Get first", "x_test.go:42:12", []int32{3, 4, 5, 6}, []int{4}, both, -1},
		{"a fire in the recorded order", "x_test.go:42:12", []int32{4, 5, 3, 6}, []int{2}, both, -1},
		{"no fire", "x_test.go:42:12", []int32{4, 5, 3, 6}, nil, both, -1},
		{"not the anomaly's goroutine", "x_test.go:42:12", []int32{4, 5, 3, 6}, []int{3}, map[string]bool{"g2": true}, -1},
		{"a program sleep", "cache.go:40:12", []int32{4, 5, 3, 6}, []int{3}, both, -1},
	} {
		tr := tickTrace(tc.site)
		sched := schedule.Schedule{Prefix: 3, Tail: tc.tail}
		evs := []int32{0, 1, 2}
		evs = append(evs, tc.tail...)
		s, err := trace.NewSchedule(tr, "asv/asv-9", evs, []int32{5, 3, 6})
		if err != nil {
			t.Fatal(err)
		}
		v := replay.Verdict{Verdict: replay.Reproduced, Fired: tc.fired}
		if got := timerPastSleep(s, sched, v, testSleeps(tr), tc.gs); got != tc.want {
			t.Errorf("%s: timerPastSleep = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestControlledTimerPastSleep: with the tick fired ahead of the test's
// post-sleep Get, a serial order that fails with the schedule's very
// message, holding the test over the same fire, the unit whole, makes
// the failure the test's timing, though the other order passed; not
// without that fire, nor with the other call split, nor other values.
func TestControlledTimerPastSleep(t *testing.T) {
	tr := tickTrace("x_test.go:42:12")
	s, err := trace.NewSchedule(tr, "asv/asv-9", []int32{0, 1, 2, 4, 5, 3, 6}, []int32{5, 3, 6})
	if err != nil {
		t.Fatal(err)
	}
	cs := serialControls(s, []int{1, 2, 1}, []int{1, 2, 1})
	if len(cs) != 2 {
		t.Fatalf("serialControls = %v", cs)
	}
	v := replay.Verdict{Verdict: replay.Reproduced, Consequence: `test fails: x_test.go:46: did not expect "change"`, Fired: []int{3}}
	pass := replay.Verdict{Verdict: replay.Reproduced, Passed: true, Fired: []int{3}}
	defer func() { straddlesOf = straddlesRun }()
	for _, tc := range []struct {
		name  string
		ahead int
		after replay.Verdict
		split bool
		want  bool
	}{
		{"the very message, the same fire", 3, v, false, true},
		{"no fire ahead", -1, v, false, false},
		{"the fire inside the unit", 5, v, false, false},
		{"the order without the fire", 3, replay.Verdict{Verdict: replay.Reproduced, Consequence: v.Consequence}, false, false},
		{"split", 3, v, true, false},
		{"other values", 3, replay.Verdict{Verdict: replay.Reproduced, Consequence: `test fails: x_test.go:46: did not expect "other"`, Fired: []int{3}}, false, false},
	} {
		straddlesOf = func(string, *trace.Schedule, *trace.Schedule) bool { return tc.split }
		got := controlled(cs, nil, tc.ahead, s, v, "", false, nil, func(name, _ string, _ *trace.Schedule) (replay.Verdict, bool) {
			switch name {
			case "before":
				return pass, true
			case "after":
				return tc.after, true
			}
			return v, true // repeat and unheld fail as the schedule did
		})
		if (got != "") != tc.want {
			t.Errorf("%s: controlled = %q, want a reason %v", tc.name, got, tc.want)
		}
	}
}

// TestTimerFiredInSleep: the virtual clock runs with the real one, so on
// a loaded machine the ticker comes due while the test still sleeps
// (tickreadfixed's TestGetBeforeRefresh at load 12–30: fired at step 16,
// the test's wake, instead of 18, the tick's receive). The fire then
// lets nothing run at once: the schedule still runs the tick's receive
// after the test's wake and ahead of its Get, as on an idle machine, in
// the replay and in a serial order. Not a fire before the test slept, a
// channel that is not a timer's, or a schedule that runs the Get first.
func TestTimerFiredInSleep(t *testing.T) {
	both := map[string]bool{"g1": true, "g2": true}
	timerTrace := func(tick string) *trace.Trace {
		tr := tickTrace("x_test.go:42:12")
		tr.Objects[4] = tick
		return tr
	}
	const timerChan = "<-chan_time.Time"
	for _, tc := range []struct {
		name  string
		tick  string
		tail  []int32
		fired []int
		want  int
	}{
		{"at the tick's receive", timerChan, []int32{4, 5, 3, 6}, []int{3}, 3},
		{"in the test's sleep", timerChan, []int32{4, 5, 3, 6}, []int{2}, 3},
		{"before the test slept", timerChan, []int32{4, 5, 3, 6}, []int{1}, -1},
		{"in the sleep, the Get first", timerChan, []int32{3, 4, 5, 6}, []int{2}, -1},
		{"in the sleep, not a timer's channel", "tick", []int32{4, 5, 3, 6}, []int{2}, -1},
	} {
		tr := timerTrace(tc.tick)
		sched := schedule.Schedule{Prefix: 3, Tail: tc.tail}
		s, err := trace.NewSchedule(tr, "asv/asv-9", append([]int32{0, 1, 2}, tc.tail...), []int32{5, 3, 6})
		if err != nil {
			t.Fatal(err)
		}
		v := replay.Verdict{Verdict: replay.Reproduced, Fired: tc.fired}
		if got := timerPastSleep(s, sched, v, testSleeps(tr), both); got != tc.want {
			t.Errorf("%s: timerPastSleep = %d, want %d", tc.name, got, tc.want)
		}
	}

	// A serial order whose ticker fired in the test's sleep, ahead of the
	// same receive, holds the test over the same tick.
	v := replay.Verdict{Verdict: replay.Reproduced, Consequence: `test fails: x_test.go:46: did not expect "change"`, Fired: []int{3}}
	pass := replay.Verdict{Verdict: replay.Reproduced, Passed: true, Fired: []int{3}}
	defer func() { straddlesOf = straddlesRun }()
	straddlesOf = func(string, *trace.Schedule, *trace.Schedule) bool { return false }
	for _, tc := range []struct {
		name  string
		tick  string
		fired []int
		want  bool
	}{
		{"at the receive", timerChan, []int{3}, true},
		{"in the test's sleep", timerChan, []int{2}, true},
		{"before the test slept", timerChan, []int{1}, false},
		{"in the sleep, not a timer's channel", "tick", []int{2}, false},
	} {
		s, err := trace.NewSchedule(timerTrace(tc.tick), "asv/asv-9", []int32{0, 1, 2, 4, 5, 3, 6}, []int32{5, 3, 6})
		if err != nil {
			t.Fatal(err)
		}
		cs := serialControls(s, []int{1, 2, 1}, []int{1, 2, 1})
		if len(cs) != 2 {
			t.Fatalf("serialControls = %v", cs)
		}
		after := v
		after.Fired = tc.fired
		got := controlled(cs, nil, 3, s, v, "", false, nil, func(name, _ string, _ *trace.Schedule) (replay.Verdict, bool) {
			switch name {
			case "before":
				return pass, true
			case "after":
				return after, true
			}
			return v, true // repeat and unheld fail as the schedule did
		})
		if (got != "") != tc.want {
			t.Errorf("%s: controlled = %q, want a reason %v", tc.name, got, tc.want)
		}
	}
}

// waitTrace is ttlcache's TestCache_TestTouch: the test g1 wakes from
// `<-time.After` (at waitSite, on wait, which no goroutine sends on) and
// touches the item (its expiry, x), and only then the expiration loop g2
// gets its timer's value, reads the expiry and, its next round, again:
// events wake 0, Touch 1, tick 2, reads 3 and 4. loopFirst records the
// tick first instead (tick 0, wake 1, Touch 2); a wait on "chan_time.Time"
// is on a channel g2 sends on, first (every index one more).
func waitTrace(waitSite, wait string, loopFirst bool) *trace.Trace {
	tr := &trace.Trace{Tables: trace.Tables{
		Goroutines: []string{"g1", "g2"},
		Objects:    []string{wait, "<-chan_time.Time", "x"},
		Sites:      []string{waitSite, "item.go:36", "cache.go:157", "item.go:45", "cache.go:127"},
	}}
	wake := trace.Event{G: 0, Op: trace.Recv, Obj: 0, Site: 0, Arg: 1}
	touch := trace.Event{G: 0, Op: trace.Write, Obj: 2, Site: 1}
	tick := trace.Event{G: 1, Op: trace.Recv, Obj: 1, Site: 2, Arg: 1}
	tr.Events = []trace.Event{wake, touch, tick}
	if loopFirst {
		tr.Events = []trace.Event{tick, wake, touch}
	}
	tr.Events = append(tr.Events, trace.Event{G: 1, Op: trace.Read, Obj: 2, Site: 3}, trace.Event{G: 1, Op: trace.Read, Obj: 2, Site: 4})
	if wait == "chan_time.Time" {
		tr.Events = append([]trace.Event{{G: 1, Op: trace.Send, Obj: 0, Site: 2, Arg: 1}}, tr.Events...)
	}
	// The loop armed its timer first: what the test's wait came after.
	tr.Events = append([]trace.Event{{G: 1, Op: trace.Read, Obj: 2, Site: 4}}, tr.Events...)
	return tr
}

// TestTimerPastWait: a test's receive from a timer's channel is a sleep
// whose wake is the receive itself (sleepWindow.wait): a schedule that
// fires the loop's timer while the test, whose own timer was due first
// and whose receive the recording ran first, waits at its gate (before
// its receive, or after it with its Touch still to run) runs the test
// late.
func TestTimerPastWait(t *testing.T) {
	both := map[string]bool{"g1": true, "g2": true}
	after := "<-chan_time.Time"
	for _, tc := range []struct {
		name      string
		site      string
		wait      string
		loopFirst bool
		order     []int32 // the schedule's events
		prefix    int
		fired     []int
		want      int
	}{
		{"woken, held before its Touch", "x_test.go:223:2", after, false, []int32{0, 2, 3, 1, 4}, 1, []int{0, 1}, 1},
		{"held before its wake, both timers in one fire", "x_test.go:223:2", after, false, []int32{2, 3, 0, 1, 4}, 0, []int{0}, 0},
		{"its own timer fired later", "x_test.go:223:2", after, false, []int32{2, 3, 0, 1, 4}, 0, []int{0, 2}, -1},
		{"the recording ran the tick first", "x_test.go:223:2", after, true, []int32{0, 3, 1, 2, 4}, 0, []int{0}, -1},
		{"a channel a goroutine sends on", "x_test.go:223:2", "chan_time.Time", false, []int32{0, 3, 4, 1, 2, 5}, 1, []int{1}, -1},
		{"a wait in the program", "cache.go:223:2", after, false, []int32{0, 2, 3, 1, 4}, 1, []int{0, 1}, -1},
	} {
		tr := waitTrace(tc.site, tc.wait, tc.loopFirst)
		// Every index one more, behind the loop's first event.
		order := []int32{0}
		for _, e := range tc.order {
			order = append(order, e+1)
		}
		fired := []int{}
		for _, f := range tc.fired {
			fired = append(fired, f+1)
		}
		want := tc.want
		if want >= 0 {
			want++
		}
		sched := schedule.Schedule{Prefix: int32(tc.prefix + 1), Tail: order[tc.prefix+1:]}
		var unit []int32
		for _, e := range order[1:] {
			if op := tr.Events[e].Op; op == trace.Read || op == trace.Write {
				unit = append(unit, e)
			}
		}
		s, err := trace.NewSchedule(tr, "av/RWR", order, unit)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		v := replay.Verdict{Verdict: replay.Reproduced, Fired: fired}
		if got := timerPastSleep(s, sched, v, testSleeps(tr), both); got != want {
			t.Errorf("%s: timerPastSleep = %d, want %d (windows %+v)", tc.name, got, want, testSleeps(tr))
		}
	}
}

// TestOverrunsWait: go-deadlock's TestHardDeadlockTryLock waits for its
// detector in `select { case <-ch: case <-time.After(100 ms) }` and then
// counts the detections; the recording ran the detector's callback g2
// (its report's reads of the options, its count) before the test's
// wake. A schedule that holds the callback's count past the wake
// overruns that wait, as one past a time.Sleep does (sleepWindow.wait).
func TestOverrunsWait(t *testing.T) {
	tr := &trace.Trace{Tables: trace.Tables{
		Goroutines: []string{"g1", "g2"},
		Objects:    []string{"<-chan_time.Time", "LogBuf", "deadlocks"},
		Sites:      []string{"trylock_test.go:125:7", "deadlock.go:328", "deadlock.go:342", "trylock_test.go:111", "trylock_test.go:127", "deadlock_test.go:160"},
	}}
	tr.Events = []trace.Event{
		{G: 1, Op: trace.Read, Obj: 1, Site: 1},
		{G: 1, Op: trace.Read, Obj: 1, Site: 2},
		{G: 1, Op: trace.AtomicRMW, Obj: 2, Site: 3},    // the count
		{G: 0, Op: trace.Recv, Obj: 0, Site: 0, Arg: 1}, // the wake
		{G: 0, Op: trace.AtomicLoad, Obj: 2, Site: 4},   // the check
		{G: 0, Op: trace.Write, Obj: 1, Site: 5},        // restore()
	}
	ws := testSleeps(tr)
	if len(ws) != 1 || !ws[0].wait {
		t.Fatalf("testSleeps = %+v, want one timer wait", ws)
	}
	both := map[string]bool{"g1": true, "g2": true}
	for _, tc := range []struct {
		name  string
		order []int32
		want  bool
	}{
		{"the callback held past the wake", []int32{0, 3, 4, 5, 1, 2}, true},
		{"as recorded", []int32{0, 1, 2, 3, 4, 5}, false},
	} {
		s, err := trace.NewSchedule(tr, "av/RWR", tc.order, []int32{0, 5, 1})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := overrunsSleep(s, ws, both); got != tc.want {
			t.Errorf("%s: overrunsSleep = %v, want %v", tc.name, got, tc.want)
		}
	}
}
