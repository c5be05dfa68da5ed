package record

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// TestSharedLocations: a location counts when two goroutines access it
// and one of them writes; atomic accesses do not count.
func TestSharedLocations(t *testing.T) {
	ev := func(g, obj int32, op trace.Op) trace.Event {
		return trace.Event{G: g, Op: op, Obj: obj, Site: trace.NoIndex}
	}
	tr := &trace.Trace{
		Tables: trace.Tables{Goroutines: []string{"g1", "g2"}, Objects: []string{"a", "b", "c", "d", "e"}},
		Events: []trace.Event{
			ev(0, 4, trace.Write), ev(1, 4, trace.Read), // shared, written
			ev(0, 1, trace.Write), ev(0, 1, trace.Read), // one goroutine's
			ev(0, 2, trace.Read), ev(1, 2, trace.Read), // read only
			ev(0, 3, trace.AtomicStore), ev(1, 3, trace.AtomicLoad), // atomic
		},
	}
	if n := SharedLocations(tr); n != 1 {
		t.Errorf("SharedLocations = %d, want 1", n)
	}
}

// TestUnstarted: a goroutine forked in the trace with no event of its own
// is counted unstarted; one that began, or did anything, is not.
func TestUnstarted(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"main fork g1 @m.go:1\ng1 begin\ng1 write x @m.go:2\nmain fork g2 @m.go:3\nmain read x @m.go:4\n", 1},
		{"main fork g1 @m.go:1\nmain fork g2 @m.go:3\ng2 write x @m.go:2\n", 1},
		{"main fork g1 @m.go:1\ng1 begin\ng1 end @m.go:5\nmain join g1\n", 0},
		{"main fork g1 @m.go:1\nmain fork g2 @m.go:2\nmain read x @m.go:4\n", 2},
	} {
		ti := textStats(t, c.text)
		if ti.unstarted != c.want {
			t.Errorf("unstarted = %d, want %d, in\n%s", ti.unstarted, c.want, c.text)
		}
	}
}

// TestForkOrder: the parent's operations between a fork and its next
// pause (a sleep, a receive, a join, its end) are counted before the
// child began, or after; a pause ends the count of the forks before it.
func TestForkOrder(t *testing.T) {
	for _, c := range []struct {
		name, text    string
		before, after int
	}{
		{"child first", "main fork g1 @m.go:1\ng1 begin\ng1 write x @m.go:2\nmain read x @m.go:3\nmain write x @m.go:3\n", 0, 2},
		{"parent first", "main fork g1 @m.go:1\nmain read x @m.go:3\nmain write x @m.go:3\ng1 begin\ng1 write x @m.go:2\n", 2, 0},
		{"between", "main fork g1 @m.go:1\nmain read x @m.go:3\ng1 begin\nmain write x @m.go:3\n", 1, 1},
		{"parent sleeps", "main fork g1 @m.go:1\ng1 begin\nmain sleep @m.go:3\nmain read x @m.go:3\n", 0, 0},
		{"parent receives", "main fork g1 @m.go:1\ng1 begin\ng1 send c @m.go:2 cap=0\nmain recv c @m.go:3 cap=0\nmain read x @m.go:3\n", 0, 0},
		{"buffered send runs on", "main fork g1 @m.go:1\ng1 begin\nmain send c @m.go:3 cap=1\n", 0, 1},
		// The second fork is an operation of the parent's after g1's.
		{"a loop of forks", "main fork g1 @m.go:1\nmain fork g2 @m.go:1\ng2 begin\nmain read x @m.go:3\ng1 begin\nmain sleep @m.go:4\n", 2, 1},
		{"notifyhint, loop first", "g1 fork g1.1 @t.go:1\ng1.1 begin\ng1.1 fork g1.1.1 @t.go:2\ng1.1.1 begin\ng1.1.1 lock mu @e.go:1\ng1.1 read e @t.go:3\ng1.1 lock mu @e.go:2\ng1.1 sleep @t.go:4\ng1.1 end\ng1 join g1.1 @t.go:1\n", 0, 2},
	} {
		ti := textStats(t, c.text)
		if ti.runOnBefore != c.before || ti.runOnAfter != c.after {
			t.Errorf("%s: %d operations before the child began, %d after; want %d, %d", c.name, ti.runOnBefore, ti.runOnAfter, c.before, c.after)
		}
	}
}

// TestBulkBeforeChild: 256 accesses or more at one site, one after
// another, made while a child of the goroutine had not begun are a bulk
// copy counted once (Go's TestRaceNestedArrayCopy); fewer, another site
// or op between, or a child already begun are not.
func TestBulkBeforeChild(t *testing.T) {
	rep := strings.Repeat
	for _, c := range []struct {
		name, text string
		want       int
	}{
		{"copy before the child", "g1 fork g1.1 @t.go:1\n" + rep("g1 write p @t.go:2\n", 300) + "g1.1 begin\ng1.1 write p @t.go:3\n", 1},
		{"short copy", "g1 fork g1.1 @t.go:1\n" + rep("g1 write p @t.go:2\n", 255) + "g1.1 begin\n", 0},
		{"child began", "g1 fork g1.1 @t.go:1\ng1.1 begin\n" + rep("g1 write p @t.go:2\n", 300), 0},
		{"no child", rep("g1 write p @t.go:2\n", 300), 0},
		{"another site between", "g1 fork g1.1 @t.go:1\n" + rep("g1 write p @t.go:2\n", 200) + "g1 write q @t.go:4\n" + rep("g1 write p @t.go:2\n", 200) + "g1.1 begin\n", 0},
		{"reads then writes", "g1 fork g1.1 @t.go:1\n" + rep("g1 read p @t.go:2\n", 200) + rep("g1 write p @t.go:2\n", 200) + "g1.1 begin\n", 0},
		{"two copies", "g1 fork g1.1 @t.go:1\n" + rep("g1 write p @t.go:2\n", 256) + "g1 read q @t.go:4\n" + rep("g1 read p @t.go:2\n", 256) + "g1.1 begin\n", 2},
		{"after a pause", "g1 fork g1.1 @t.go:1\ng1 sleep @t.go:5\n" + rep("g1 write p @t.go:2\n", 300) + "g1.1 begin\n", 0},
	} {
		ti := textStats(t, c.text)
		if ti.bulkBeforeChild != c.want {
			t.Errorf("%s: bulkBeforeChild = %d, want %d", c.name, ti.bulkBeforeChild, c.want)
		}
	}
}

// TestOwnWall: a test's own time is what go test printed at its end, not
// the process's (Wall); a test that printed none (it hung) has Wall.
func TestOwnWall(t *testing.T) {
	for _, c := range []struct {
		out  string
		want time.Duration
	}{
		{"=== RUN   TestA\n--- PASS: TestA (0.02s)\nPASS\n", 20 * time.Millisecond},
		{"=== RUN   TestA\n    --- PASS: TestA/sub (1.50s)\n--- FAIL: TestA (1.51s)\n", 1510 * time.Millisecond},
		{"=== RUN   TestAB\n--- PASS: TestAB (2.00s)\n", 300 * time.Millisecond}, // another test's
		{"=== RUN   TestA\npanic: hung\n", 300 * time.Millisecond},
	} {
		tt := Test{Name: "TestA", Wall: 300 * time.Millisecond, Output: c.out}
		if got := tt.OwnWall(); got != c.want {
			t.Errorf("OwnWall of %q = %v, want %v", c.out, got, c.want)
		}
	}
}

// TestEndedByRTStats: a trace rt ended (cut at the event cap, hung,
// stalled) hands back the counts endedByRT read, the same as setStats
// reads off the file (the batch's send uses them rather than read a
// million-event trace again); a trace rt did not end gives none.
func TestEndedByRTStats(t *testing.T) {
	body := "main fork g1 @m.go:1\ng1 begin\ng1 write x @m.go:2\nmain fork g2 @m.go:3\nmain read x @m.go:4\n"
	for _, c := range []struct {
		trunc string
		ended bool
	}{
		{"cut at 5 events (PECANVET_MAXEVENTS)", true},
		{"hung: every goroutine blocked", true},
		{"stalled: no event for 10s", true},
		{"panic: boom", false},
		{"", false},
	} {
		text := trace.TextHeader + "\n" + body
		if c.trunc != "" {
			text += "# truncated: " + c.trunc + "\n"
		}
		path := filepath.Join(t.TempDir(), "t.trace")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		read, ended := endedByRT(path)
		if ended != c.ended || (read != nil) != c.ended {
			t.Fatalf("%q: ended %v, counts %v; want %v", c.trunc, ended, read != nil, c.ended)
		}
		if !ended {
			continue
		}
		var want, got Test
		if err := want.setStats(path); err != nil {
			t.Fatal(err)
		}
		got.copyStats(read)
		if got != want || got.Events != 5 || got.Truncated != c.trunc {
			t.Errorf("%q: counts %+v, want %+v", c.trunc, got, want)
		}
	}
}

// TestStatsObjects: traceStats counts the object names a binary trace
// defines (the size check hands predict.ReadPrefixSized), the names its
// events use; a text trace gives none.
func TestStatsObjects(t *testing.T) {
	ev := func(g, obj int32, op trace.Op) trace.Event {
		return trace.Event{G: g, Op: op, Obj: obj, Site: trace.NoIndex}
	}
	tr := &trace.Trace{
		Tables: trace.Tables{Goroutines: []string{"g1", "g2"}, Objects: []string{"a", "b", "c", "unused"}},
		Events: []trace.Event{ev(0, 0, trace.Write), ev(1, 1, trace.Read), ev(0, 2, trace.Write), ev(1, 0, trace.Read)},
	}
	path := filepath.Join(t.TempDir(), "t.trace")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.WriteBinary(f, tr); err != nil {
		t.Fatal(err)
	}
	f.Close()
	ti, err := traceStats(path)
	if err != nil {
		t.Fatal(err)
	}
	if ti.objects != 3 {
		t.Errorf("objects = %d, want 3", ti.objects)
	}
	text := filepath.Join(t.TempDir(), "t.txt")
	if err := os.WriteFile(text, []byte(trace.TextHeader+"\nmain write x @m.go:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ti, err := traceStats(text); err != nil || ti.objects != 0 {
		t.Errorf("text trace: objects = %d, err %v, want 0", ti.objects, err)
	}
}

// TestEarlyNotify: a Cond signalled or broadcast by a goroutine while a
// child it forked since its last pause had not begun, and never waited on
// in the trace, is counted once (ants' TestPoolTuneScaleUp: Tune's
// broadcast before its five submitters began); a child begun, a Wait on
// the Cond anywhere in the trace (one blocked at the notify returns after
// it), a pause between the fork and the notify, or another goroutine's
// notify are not.
func TestEarlyNotify(t *testing.T) {
	const fork = "g1 fork g1.1 @t.go:1\ng1 fork g1.2 @t.go:1\ng1 atomic-store cap @p.go:1\n"
	for _, c := range []struct {
		name, text string
		want       int
	}{
		{"broadcast before the children", fork + "g1 cond-broadcast c @p.go:2\ng1.1 begin\ng1.1 atomic-load cap @p.go:3\ng1.2 begin\ng1.2 atomic-load cap @p.go:3\n", 1},
		{"signal before the children", fork + "g1 cond-signal c @p.go:2\ng1.1 begin\ng1.2 begin\n", 1},
		{"two notifies, one Cond", fork + "g1 cond-broadcast c @p.go:2\ng1 cond-signal c @p.go:2\ng1.1 begin\ng1.2 begin\n", 1},
		{"two Conds", fork + "g1 cond-broadcast c @p.go:2\ng1 cond-broadcast d @p.go:2\ng1.1 begin\ng1.2 begin\n", 2},
		{"children begun", fork + "g1.1 begin\ng1.2 begin\ng1 cond-broadcast c @p.go:2\n", 0},
		{"one child begun", fork + "g1.1 begin\ng1 cond-broadcast c @p.go:2\ng1.2 begin\n", 1},
		{"a Wait on it", fork + "g1.1 begin\ng1.1 lock mu @p.go:4\ng1 cond-broadcast c @p.go:2\ng1.1 cond-wait c @p.go:5\ng1.2 begin\n", 0},
		{"a Wait on it later", fork + "g1 cond-broadcast c @p.go:2\ng1.1 begin\ng1.2 begin\ng1 cond-signal c @p.go:2\ng1.2 cond-wait c @p.go:5\n", 0},
		{"a pause between", fork + "g1 sleep @t.go:2\ng1 cond-broadcast c @p.go:2\ng1.1 begin\ng1.2 begin\n", 0},
		{"another goroutine's notify", "g1 fork g1.1 @t.go:1\ng1 fork g1.2 @t.go:1\ng1.1 begin\ng1.1 cond-broadcast c @p.go:2\ng1.2 begin\n", 0},
		{"no fork", "g1 cond-broadcast c @p.go:2\n", 0},
	} {
		ti := textStats(t, c.text)
		if ti.earlyNotify != c.want {
			t.Errorf("%s: earlyNotify = %d, want %d", c.name, ti.earlyNotify, c.want)
		}
	}
}

// textStats is traceStats of a text trace with the body text.
func textStats(t *testing.T, text string) traceInfo {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.trace")
	if err := os.WriteFile(path, []byte(trace.TextHeader+"\n"+text), 0o644); err != nil {
		t.Fatal(err)
	}
	ti, err := traceStats(path)
	if err != nil {
		t.Fatal(err)
	}
	return ti
}
