package check

import (
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// TestUnusedReads: goresilience's window slider reads the window (W)
// between a Run's two resets and stores a bucket into its array (E); the
// read's Event.Unused holds when the replay's trace shows that store
// (and, for a deciding branch, the index I it may store into) next
// accessed by a plain write, or by nothing to the end of a run that went
// on past the unit's goroutine's end; not when anyone reads it first,
// the trace is cut short or the unit never ends in it. The reader's
// next round, after it reads at the read's site again, is not the read's.
func TestUnusedReads(t *testing.T) {
	const (
		a   = "g1 write W @reset.go:1\n"
		b   = "g1 write W @reset.go:1\ng1 write I @reset.go:5\n"
		end = "g1 end\n"
	)
	sinks := func(string) (depend.Sinks, bool) {
		return depend.Sinks{Sites: []string{"tick.go:3", "tick.go:6"}, Must: [][]string{{"tick.go:3", "tick.go:3:9"}}}, true
	}
	decides := func(string) (depend.Sinks, bool) {
		return depend.Sinks{Sites: []string{"tick.go:3", "tick.go:6"}, Decided: [][]string{{"tick.go:4"}}}, true
	}
	for _, tc := range []struct {
		name            string
		pre, read, post string // pre: the reader's steps before its read; post: after it, in its activation
		mid, tail       string // mid: between the reader's activation and b; tail: after b
		sinks           func(string) (depend.Sinks, bool)
		want            bool
	}{
		{"the element never accessed again", "", "g2 read W @tick.go:2\n", "g2 write E @tick.go:3\n", "", end, sinks, true},
		{"the element read by the unit before b", "", "g2 read W @tick.go:2\n", "g2 write E @tick.go:3\n", "g1 read E @total.go:8\n", end, sinks, false},
		{"the element read after b", "", "g2 read W @tick.go:2\n", "g2 write E @tick.go:3\n", "", "g3 read E @x.go:7\n" + end, sinks, false},
		{"the element overwritten, then read", "", "g2 read W @tick.go:2\n", "g2 write E @tick.go:3\n", "g4 write E @x.go:1\ng4 read E @x.go:2\n", end, sinks, true},
		{"the reader reads its own store", "", "g2 read W @tick.go:2\n", "g2 write E @tick.go:3\ng2 read E @tick.go:9\n", "", end, sinks, false},
		{"the unit never ends", "", "g2 read W @tick.go:2\n", "g2 write E @tick.go:3\n", "", "", sinks, false},
		{"a run cut short", "", "g2 read W @tick.go:2\n", "g2 write E @tick.go:3\n", "", end + "# truncated: panic: boom\n", sinks, false},
		{"a second store in the activation, read", "", "g2 read W @tick.go:2\n", "g2 write E @tick.go:3\ng2 write F @tick.go:6\n", "g1 read F @x.go:1\n", end, sinks, false},
		{"the next round's store after a fresh read", "", "g2 read W @tick.go:2\n", "g2 write E @tick.go:3\ng2 read W @tick.go:2\ng2 write F @tick.go:3\n", "g1 read F @x.go:1\n", end, sinks, true},
		{"a nested call's store at the site", "", "g2 read W @tick.go:2\n", "g2 write E @tick.go:3\ng2 region-begin other\ng2 write F @tick.go:3\ng2 region-end other\n", "g1 read F @x.go:1\n", end, sinks, true},
		{"the decided index, overwritten by the unit", "g2 read I @tick.go:4\n", "g2 read W @tick.go:6\n", "", "", end, decides, true},
		{"the decided index, stored and overwritten", "g2 read I @tick.go:4\n", "g2 read W @tick.go:6\n", "g2 write I @tick.go:6\n", "", end, decides, true},
		{"the decided index, read before b", "g2 read I @tick.go:4\n", "g2 read W @tick.go:6\n", "", "g1 read I @x.go:3\n", end, decides, false},
		{"the decided index, no access before the branch", "", "g2 read W @tick.go:6\n", "", "", end, decides, false},
		{"not static's", "", "g2 read W @tick.go:2\n", "", "", end, func(string) (depend.Sinks, bool) { return depend.Sinks{}, false }, false},
		{"the element store not made (a panic)", "", "g2 read W @tick.go:2\n", "", "", end, sinks, false},
	} {
		act := "g2 region-begin slide\n" + tc.pre + tc.read + tc.post + "g2 region-end slide\n"
		text := "g3 write N @t.go:9\n" + a + act + tc.mid + b + tc.tail
		tr, err := trace.ReadTrace(strings.NewReader(text), "t.txt", trace.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		pr := 2 + strings.Count(tc.pre, "\n") + 1
		pb := 2 + strings.Count(act+tc.mid, "\n")
		if tr.Events[pr].Op != trace.Read || tr.Events[pb].Op != trace.Write {
			t.Fatalf("%s: positions %d, %d", tc.name, pr, pb)
		}
		steps := []trace.Step{{G: "g1", Op: trace.Write, Obj: "W"}, {G: "g2", Op: trace.Read, Obj: "W"}, {G: "g1", Op: trace.Write, Obj: "W"}}
		f := &Finding{Schedule: &trace.Schedule{Steps: steps, Anomaly: []int{0, 1, 2}}}
		rt := &replayTrace{f: f, read: true, tr: tr, pos: []int{1, pr, pb}}
		evs := []depend.Event{
			{Thread: 1, Unit: 1, Write: true, Site: "reset.go:1"},
			{Thread: 2, Unit: 2, Read: true, Site: "tick.go:2"},
			{Thread: 1, Unit: 1, Write: true, Site: "reset.go:1"},
		}
		unusedReads(f, evs, tc.sinks, rt)
		if evs[1].Unused != tc.want {
			t.Errorf("%s: Unused = %v, want %v", tc.name, evs[1].Unused, tc.want)
		}
		if evs[0].Unused || evs[2].Unused {
			t.Errorf("%s: Unused on a write", tc.name)
		}
	}
	// No replay trace: nothing known.
	f := &Finding{Schedule: &trace.Schedule{Steps: []trace.Step{{G: "g1", Op: trace.Write, Obj: "W"}, {G: "g2", Op: trace.Read, Obj: "W"}, {G: "g1", Op: trace.Write, Obj: "W"}}, Anomaly: []int{0, 1, 2}}}
	evs := []depend.Event{{Thread: 1, Unit: 1, Write: true}, {Thread: 2, Unit: 2, Read: true}, {Thread: 1, Unit: 1, Write: true}}
	unusedReads(f, evs, sinks, &replayTrace{f: f, read: true})
	if evs[1].Unused {
		t.Error("Unused without a replay trace")
	}
}
