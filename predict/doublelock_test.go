package predict

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// doubleLockTrace: the relock subject's shape. g2 reads S under M's read
// lock at a relock site; g1 writes S under M's write lock later.
const doubleLockTrace = `
	main fork g1 @t.go:1
	main fork g2 @t.go:2
	g2 begin
	g2 rlock M @t.go:21
	g2 read S @t.go:23
	g2 runlock M @t.go:26
	g2 end
	g1 begin
	g1 lock M @t.go:40
	g1 write S @t.go:41
	g1 unlock M @t.go:42
	g1 end
`

func TestDoubleLock(t *testing.T) {
	var pr, ps *pattern.Pattern
	for _, p := range builtin(t, "deadlock") {
		switch p.ID() {
		case "deadlock/double-lock":
			pr = p
		case "deadlock/double-lock-stale":
			ps = p
		}
	}
	if pr == nil || ps == nil {
		t.Fatal("no relock patterns in the deadlock set")
	}
	relock := func(site string) bool { return strings.HasPrefix(site, "t.go:23") }
	run := func(text string, relock func(string) bool) []Anomaly {
		t.Helper()
		tr, err := gen.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(tr, []*pattern.Pattern{pr}, Options{Relock: relock})
		if err != nil {
			t.Fatal(err)
		}
		return res.Anomalies
	}
	as := run(doubleLockTrace, relock)
	if len(as) != 1 || as[0].Key != "w@t.go:41|r@t.go:23" {
		t.Fatalf("anomalies %+v, want the write at t.go:41 before the read at t.go:23", as)
	}
	// The writer's whole critical section comes first: its unlock, then
	// the reader's read lock, then the read, last.
	tr, _ := gen.Parse(doubleLockTrace)
	var ops []string
	for _, e := range as[0].Schedule.Events() {
		ops = append(ops, tr.Site(tr.Events[e]))
	}
	if i, j := slices.Index(ops, "t.go:42"), slices.Index(ops, "t.go:21"); i < 0 || j < i || ops[len(ops)-1] != "t.go:23" {
		t.Errorf("schedule sites %v: want the unlock (t.go:42) before the read lock (t.go:21), the read last", ops)
	}
	// Not a relock site, or no source: no candidate.
	if as := run(doubleLockTrace, func(string) bool { return false }); len(as) != 0 {
		t.Errorf("no relock site: %d anomalies", len(as))
	}
	if as := run(doubleLockTrace, nil); len(as) != 0 {
		t.Errorf("no source: %d anomalies", len(as))
	}
	// A write that the read happens before (g2 tells g1 after its read
	// section) cannot come first.
	ordered := strings.Replace(strings.Replace(doubleLockTrace,
		"g2 runlock M @t.go:26\n", "g2 runlock M @t.go:26\n\tg2 send K @t.go:27 cap=1\n", 1),
		"g1 begin\n", "g1 begin\n\tg1 recv K @t.go:39 cap=1\n", 1)
	if as := run(ordered, relock); len(as) != 0 {
		t.Errorf("ordered: %d anomalies, want none", len(as))
	}
	// The stale read: g1's critical section came first and g2 read its
	// write; the stale pattern runs the read first. The other pattern has
	// no later write to move.
	first := `
	main fork g1 @t.go:1
	main fork g2 @t.go:2
	g1 begin
	g1 lock M @t.go:40
	g1 write S @t.go:41
	g1 unlock M @t.go:42
	g1 end
	g2 begin
	g2 rlock M @t.go:21
	g2 read S @t.go:23
	g2 runlock M @t.go:26
	g2 end
`
	tr2, err := gen.Parse(first)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(tr2, []*pattern.Pattern{pr, ps}, Options{Relock: relock})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Anomalies) != 1 || res.Anomalies[0].Pattern != ps || res.Anomalies[0].Key != "r@t.go:23|w@t.go:41" {
		t.Fatalf("stale: anomalies %+v, want the read at t.go:23 before the write at t.go:41", res.Anomalies)
	}
	if evs := res.Anomalies[0].Schedule.Events(); tr2.Site(tr2.Events[evs[len(evs)-1]]) != "t.go:41" {
		t.Errorf("stale: the schedule does not end with the write")
	}
}

// TestNextOtherWrites compares nextOtherWrites with the forward scan it
// replaced on random traces of few goroutines and variables.
func TestNextOtherWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		evs := make([]trace.Event, rng.IntN(60))
		for i := range evs {
			op := trace.Read
			switch rng.IntN(3) {
			case 0:
				op = trace.Write
			case 1:
				op = trace.Lock
			}
			evs[i] = trace.Event{G: int32(rng.IntN(3)), Op: op, Obj: int32(rng.IntN(3))}
		}
		got := nextOtherWrites(evs)
		for i, ev := range evs {
			want := int32(-1)
			if ev.Op == trace.Read {
				for j := i + 1; j < len(evs); j++ {
					if w := evs[j]; w.Op == trace.Write && w.Obj == ev.Obj && w.G != ev.G {
						want = int32(j)
						break
					}
				}
			}
			if got[i] != want {
				t.Fatalf("trial %d: event %d (%v): next other write %d, want %d", trial, i, ev, got[i], want)
			}
		}
	}
}

// TestDoubleLocksAskOncePerReadSite: DoubleLocks and StaleInversions ask
// their site predicate once per site of a plain read, and with no site
// accepted find nothing (readSites: the whole-trace passes are skipped);
// with one accepted they find what they found before.
func TestDoubleLocksAskOncePerReadSite(t *testing.T) {
	tr, err := gen.Parse(doubleLockTrace + `
	g2 read S @t.go:23
	g2 read S @t.go:24
	`)
	if err != nil {
		t.Fatal(err)
	}
	gr := ptg.Build(tr)
	asked := map[string]int{}
	never := func(site string) bool { asked[site]++; return false }
	if ds := DoubleLocks(gr, never); ds != nil {
		t.Errorf("DoubleLocks with no relock site: %+v, want none", ds)
	}
	if ds := StaleInversions(gr, never); ds != nil {
		t.Errorf("StaleInversions with no inversion site: %+v, want none", ds)
	}
	for site, n := range asked {
		if n != 2 || !strings.HasPrefix(site, "t.go:2") {
			t.Errorf("site %s asked %d times, want twice (once by each), and only read sites", site, n)
		}
	}
	if len(asked) != 2 {
		t.Errorf("asked about %v, want the two read sites", asked)
	}
	relock := func(site string) bool { return strings.HasPrefix(site, "t.go:23") }
	ds := DoubleLocks(gr, relock)
	if len(ds) == 0 {
		t.Fatal("DoubleLocks with the relock site: none, want the read at t.go:23 with g1's write")
	}
	for _, d := range ds {
		if site := tr.Site(tr.Events[d.Read]); !strings.HasPrefix(site, "t.go:23") {
			t.Errorf("candidate read at %s, want t.go:23", site)
		}
	}
}
