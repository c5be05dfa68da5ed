package check

import (
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// TestSliceLens: goresilience's dequeuer checks len(jobs) (a), the
// enqueuer appends, the dequeuer dequeues (b): Event.Len gives, for each
// event of the checked variable, the length the replay's trace shows the
// last write before it storing, whether that write was another
// goroutine's, and the unit's own last write before it; nothing when the
// check's site is no length-only predicate load or there is no trace.
func TestSliceLens(t *testing.T) {
	text := "g1 write Q.jobs @q.go:9 len=1\n" + // 0: the unit's own earlier store
		"g2 write Q.jobs @q.go:93 len=2\n" + // 1
		"g1 read Q.jobs @q.go:144\n" + // 2: a
		"g2 write Other @q.go:5 len=9\n" + // 3
		"g2 write Q.jobs @q.go:93 len=3\n" + // 4: between
		"g1 read Q.jobs @q.go:131\n" + // 5: b
		"g1 write Q.jobs @q.go:131 len=2\n" // 6: b as a write
	tr, err := trace.ReadTrace(strings.NewReader(text), "t.txt", trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	steps := []trace.Step{{G: "g1", Op: trace.Read, Obj: "Q.jobs"}, {G: "g2", Op: trace.Write, Obj: "Q.jobs"}, {G: "g1", Op: trace.Read, Obj: "Q.jobs"}, {G: "g1", Op: trace.Write, Obj: "Q.jobs"}}
	run := func(tested bool, rt *replayTrace, f *Finding) []depend.Event {
		evs := []depend.Event{
			{Thread: 1, Unit: 1, Read: true, Site: "check"},
			{Thread: 2, Unit: 2, Write: true, Site: "append"},
			{Thread: 1, Unit: 1, Read: true, Site: "head"},
			{Thread: 1, Unit: 1, Write: true, Site: "take"},
		}
		sliceLens(f, evs, func(site string) bool { return tested && site == "check" }, rt)
		return evs
	}
	f := &Finding{Schedule: &trace.Schedule{Steps: steps, Anomaly: []int{0, 1, 2, 3}}}
	evs := run(true, &replayTrace{f: f, read: true, tr: tr, pos: []int{2, 4, 5, 6}}, f)
	want := []depend.SliceLen{
		{Len: 2, Other: true, At: 2, OwnAt: 0},
		{Len: 2, Other: false, At: 4, OwnAt: 1},
		{Len: 3, Other: true, At: 5, OwnAt: 0},
		{Len: 3, Other: true, Fresh: true, At: 6, OwnAt: 0},
	}
	for k := range evs {
		if evs[k].Len == nil || *evs[k].Len != want[k] {
			t.Errorf("event %d: Len = %+v, want %+v", k, evs[k].Len, want[k])
		}
	}
	// The take's read before the other's append: the write b is not
	// fresh.
	tr3, err := trace.ReadTrace(strings.NewReader("g1 write Q.jobs @q.go:9 len=1\ng1 read Q.jobs @q.go:144\ng1 read Q.jobs @q.go:131\ng2 write Q.jobs @q.go:93 len=2\ng1 write Q.jobs @q.go:131 len=0\n"), "t.txt", trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if evs := run(true, &replayTrace{f: f, read: true, tr: tr3, pos: []int{1, 3, 2, 4}}, f); evs[3].Len == nil || evs[3].Len.Fresh || evs[3].Len.Len != 2 || !evs[3].Len.Other {
		t.Errorf("a take that read before the append: %+v, want not fresh", evs[3].Len)
	}
	// A write without a length before: unknown.
	tr2, err := trace.ReadTrace(strings.NewReader(strings.Replace(text, "@q.go:93 len=3", "@q.go:93", 1)), "t.txt", trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if evs := run(true, &replayTrace{f: f, read: true, tr: tr2, pos: []int{2, 4, 5, 6}}, f); evs[2].Len == nil || evs[2].Len.Len != -1 {
		t.Errorf("no length recorded: %+v, want -1", evs[2].Len)
	}
	// No length-only check, or no trace: nothing.
	for _, evs := range [][]depend.Event{run(false, &replayTrace{f: f, read: true, tr: tr, pos: []int{2, 4, 5, 6}}, f), run(true, &replayTrace{f: f, read: true}, f)} {
		for k := range evs {
			if evs[k].Len != nil {
				t.Errorf("event %d: Len = %+v, want nil", k, evs[k].Len)
			}
		}
	}
}
