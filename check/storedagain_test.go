package check

import (
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// TestStoredAgain: hashicorp/raft's FullyConnect stores a peer's pointer
// in a transport's peers map twice, with another goroutine's lookup of
// that peer between: the read's Event.Again holds the pair when the
// replay's trace shows both stores of one identity at the read's key and
// no write of that key or of the whole map between; not when the values
// differ or are unrecorded, another write of the key (even of the same
// value), a delete or a clear comes between, or the read is of another
// key or of the whole map.
func TestStoredAgain(t *testing.T) {
	const (
		a     = "g1 write M @t.go:1 key=7 val=4096\n"
		read  = "g2 read M @t.go:2 key=7\n"
		b     = "g1 write M @t.go:1 key=7 val=4096\n"
		other = "g1 write M @t.go:1 key=8 val=8192\n"
	)
	for _, tc := range []struct {
		name       string
		a, mid, b  string // mid: the events between a and the read
		read, post string // post: between the read and b
		want       bool
	}{
		{"one pointer twice, another key between", a, other, b, read, other, true},
		{"nothing between", a, "", b, read, "", true},
		{"another goroutine's write at another key", a, "g3 write M @t.go:3 key=9 val=1\n", b, read, "", true},
		{"another object's write at the key", a, "g3 write N @t.go:3 key=7 val=1\n", b, read, "", true},
		{"another value", a, "", "g1 write M @t.go:1 key=7 val=4097\n", read, "", false},
		{"no identity at b", a, "", "g1 write M @t.go:1 key=7\n", read, "", false},
		{"no identity at a", "g1 write M @t.go:1 key=7\n", "", b, read, "", false},
		{"a write of the same value between", a, "g3 write M @t.go:3 key=7 val=4096\n", b, read, "", false},
		{"the unit's write of the key after the read", a, "", b, read, "g1 write M @t.go:1 key=7 val=4096\n", false},
		{"a delete between", a, "", b, read, "g3 write M @t.go:4 key=7\n", false},
		{"a clear between", a, "g3 write M @t.go:5\n", b, read, "", false},
		{"the read at another key", a, "", b, "g2 read M @t.go:2 key=9\n", "", false},
		{"the read of the whole map", a, "", b, "g2 read M @t.go:2\n", "", false},
	} {
		text := tc.a + tc.mid + tc.read + tc.post + tc.b
		tr, err := trace.ReadTrace(strings.NewReader("g3 write N @t.go:9\n"+text), "t.txt", trace.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		n := len(tr.Events)
		ra := 1
		rr := 1 + strings.Count(tc.a+tc.mid, "\n")
		steps := []trace.Step{{G: "g1", Op: trace.Write, Obj: "M"}, {G: "g2", Op: trace.Read, Obj: "M"}, {G: "g1", Op: trace.Write, Obj: "M"}}
		f := &Finding{Schedule: &trace.Schedule{Steps: steps, Anomaly: []int{0, 1, 2}}}
		rt := &replayTrace{f: f, read: true, tr: tr, pos: []int{ra, rr, n - 1}}
		evs := []depend.Event{
			{Thread: 1, Unit: 1, Write: true, Key: 7},
			{Thread: 2, Unit: 2, Read: true, Key: 7},
			{Thread: 1, Unit: 1, Write: true, Key: 7},
		}
		storedAgain(f, evs, rt)
		if got := len(evs[1].Again) == 1 && evs[1].Again[0] == [2]int{0, 2}; got != tc.want || len(evs[1].Again) > 1 {
			t.Errorf("%s: Again = %v, want the pair (0, 2): %v", tc.name, evs[1].Again, tc.want)
		}
		if evs[0].Again != nil || evs[2].Again != nil {
			t.Errorf("%s: Again of a write", tc.name)
		}
	}
	// No replay trace: nothing known.
	f := &Finding{Schedule: &trace.Schedule{Steps: []trace.Step{{G: "g1", Op: trace.Write, Obj: "M"}, {G: "g2", Op: trace.Read, Obj: "M"}, {G: "g1", Op: trace.Write, Obj: "M"}}, Anomaly: []int{0, 1, 2}}}
	evs := []depend.Event{{Write: true, Key: 7}, {Read: true, Key: 7}, {Write: true, Key: 7}}
	storedAgain(f, evs, &replayTrace{f: f, read: true})
	if evs[1].Again != nil {
		t.Error("Again without a replay trace")
	}
}
