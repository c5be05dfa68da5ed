package depend

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJudgePoll: certmagic's TestJobManagerCleansUpAfterJobPanic
// (testdata's PollJobs and TestPollJobs). The worker deletes the job's
// name and decrements its count in two critical sections; the test's
// condition, polled by waitUntil, reads the name gone and the worker
// still counted between them. The inconsistent snapshot holds as
// recorded, and holds not once the replay shows the condition's reads
// polled again (Event.Retried): they decided only another poll
// (PollRead). It still holds when the condition keeps a value it read
// (left = j.active, which the test uses after the poll) and when the
// poller's call sits in a loop (a poll that succeeded may be followed by
// the next call's); PollRead is false for a read the condition repeats
// in a loop of its own.
func TestJudgePoll(t *testing.T) {
	x, at := index(t)
	root, err := filepath.Abs("testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "dep/dep_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	atTest := func(line, col string) string {
		for i, l := range lines {
			if strings.Contains(l, line) {
				if c := strings.Index(l, col); c >= 0 {
					return fmt.Sprintf("dep/dep_test.go:%d:%d", i+1, c+1)
				}
				t.Fatalf("%q not in line %q", col, l)
			}
		}
		t.Fatalf("%q not in dep_test.go", line)
		return ""
	}
	worker := []Frame{{ID: 1, Site: at("func (j *PollJobs) worker(", "worker")}}
	ev := func(u, v int, read, write bool, site string, fr []Frame) Event {
		return Event{Thread: u, Unit: u, Var: v, Read: read, Write: write, Site: site, Frames: fr}
	}
	const names, active = 0, 1
	del := ev(1, names, false, true, at("// polljobs delete", "(j.names"), worker)
	dec := ev(1, active, false, true, at("// polljobs decrement", "active"), worker)
	reads := func(kind string) (Event, Event) {
		return ev(2, names, true, false, atTest("// polljobs "+kind+"tracked", "[\"a\"]"), nil),
			ev(2, active, true, false, atTest("// polljobs "+kind+"active", "active"), nil)
	}
	retried := func(e Event) Event { e.Retried = true; return e }

	tracked, act := reads("")
	keptTracked, keptAct := reads("kept ")
	againTracked, againAct := reads("again ")
	for _, c := range []struct {
		site string
		want bool
	}{{tracked.Site, true}, {act.Site, true}, {keptTracked.Site, false}, {keptAct.Site, false}, {againTracked.Site, false}, {againAct.Site, false}, {atTest("// polljobs loop active", "active"), false}} {
		if got := x.PollRead(c.site); got != c.want {
			t.Errorf("PollRead(%s) = %v, want %v", c.site, got, c.want)
		}
	}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"the condition's reads, as recorded", []Event{del, tracked, act, dec}, true},
		{"the condition's reads polled again", []Event{del, retried(tracked), retried(act), dec}, false},
		{"a condition that keeps the count it read, polled again", []Event{del, retried(keptTracked), retried(keptAct), dec}, true},
		{"a poller called in a loop, polled again", []Event{del, retried(againTracked), retried(againAct), dec}, true},
	} {
		v := x.Judge(tc.evs)
		if v.Holds != tc.want {
			t.Errorf("%s: Judge = %v, %q: %s; want %v", tc.name, v.Holds, v.Kind, v.Why, tc.want)
		}
	}
}
