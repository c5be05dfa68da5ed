package check

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// TestSerialReplay: marusama/semaphore's
// TestSemaphore_SetLimit_increase_broadcast (issue 26, trial 33) calls
// SetLimit(2) to wake the goroutine waiting in Acquire and checks the
// count at once, racing the woken goroutine's acquire ("count = 1, but
// has 2"). Its :197 asv-9 and asv-14 replays failed so with the waiter's
// events inside SetLimit, yet each trace is a run in which SetLimit ran
// whole (serialReplay): the waiter's load and CAS touch the state, which
// SetLimit does not touch after its CAS (asv-9), or its channel read and
// re-load are a void round (asv-14). Their effect is withdrawn. Release
// of depend's casround testdata is SetLimit's shape (CAS, swap under the
// lock, close). Near misses keep their effect: the waiter's CAS between
// Release's load and CAS (a lost update), a waiter that waited on the
// old channel (a receive: not a void round), a waiter whose round wrote,
// a unit the trace never closes, and a replay in which none of the
// other goroutines' events of the anomaly fell inside the unit
// (handoff's explored :24 av, whose failure is another unit's).
func TestSerialReplay(t *testing.T) {
	loaded, site := casroundSource(t)
	ld, recheck := site("Acquire", "LoadUint64(", 1, 10), site("Acquire", "LoadUint64(", 2, 10)
	acqCAS := site("Acquire", "CompareAndSwapUint64(", 1, 20)
	chRead := site("Acquire", "s.ch", 1, 2)
	relLoad, relCAS := site("Release", "LoadUint64(", 1, 10), site("Release", "CompareAndSwapUint64(", 1, 20)
	relRead, relWrite := site("Release", "s.ch", 1, 2), site("Release", "s.ch", 2, 2)
	acqAt, relAt := site("Acquire", "", 0, 0), site("Release", "", 0, 0)
	type ev struct{ g, op, at, obj string }
	finding := func(p string, run []ev, anomaly []int) Finding {
		pat := pattern.MustParse(p)[0]
		s := &trace.Schedule{Anomaly: anomaly}
		var b strings.Builder
		b.WriteString("# pecanvet trace v1\n")
		n := map[string]int{}
		for _, e := range run {
			op, ok := trace.ParseOp(e.op)
			if !ok {
				t.Fatalf("op %q", e.op)
			}
			n[e.g+e.op+e.at]++
			s.Steps = append(s.Steps, trace.Step{G: e.g, Op: op, Obj: e.obj, Site: e.at, N: n[e.g+e.op+e.at]})
			fmt.Fprintf(&b, "%s %s %s @%s\n", e.g, e.op, e.obj, e.at)
		}
		path := filepath.Join(t.TempDir(), "replay.trace")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		a := predict.Anomaly{Pattern: pat}
		for k, i := range anomaly {
			fr := []predict.Frame{{Begin: 1, Site: acqAt}}
			if run[i].g == "g2" {
				fr = []predict.Frame{{Begin: 11, Site: relAt}}
			}
			a.Events = append(a.Events, int32(k))
			a.Sites = append(a.Sites, run[i].at)
			a.Frames = append(a.Frames, fr)
		}
		v := replay.Verdict{Verdict: replay.Reproduced, Trace: path, Consequence: "test fails: semaphore_test.go:22: semaphore must have count = 1, but has 2"}
		return Finding{Package: "dep/casround", Test: "TestSem", Anomaly: a, Schedule: s, Verdict: v}
	}
	begin, end := ev{"g2", "region-begin", relAt, "Sem.Release"}, ev{"g2", "region-end", relAt, "Sem.Release"}
	release := func(mid ...ev) []ev {
		// Release whole but for mid, which falls after its CAS.
		run := []ev{begin, {"g2", "atomic-load", relLoad, "state#1"}, {"g2", "atomic-rmw", relCAS, "state#1"}}
		run = append(run, mid...)
		return append(run, ev{"g2", "lock", "x.go:3", "lock#1"}, ev{"g2", "read", relRead, "ch#1"}, ev{"g2", "write", relWrite, "ch#1"},
			ev{"g2", "unlock", "x.go:4", "lock#1"}, ev{"g2", "close", "x.go:5", "chan#1"}, end)
	}
	load, cas := ev{"g1", "atomic-load", ld, "state#1"}, ev{"g1", "atomic-rmw", acqCAS, "state#1"}
	rlock, read, runlock := ev{"g1", "rlock", "x.go:1", "lock#1"}, ev{"g1", "read", chRead, "ch#1"}, ev{"g1", "runlock", "x.go:2", "lock#1"}
	reload := ev{"g1", "atomic-load", recheck, "state#1"}
	// The waiter's round full before Release, then its channel read and
	// re-load inside it (asv-14): changed, it loads again and acquires,
	// after Release or inside it.
	asv14 := func(live []ev, after bool) []ev {
		run := append([]ev{load}, release(append([]ev{rlock, read, runlock, reload}, live...)...)...)
		if after {
			run = append(run, load, cas)
		}
		return run
	}
	// asv-9: Release's CAS, the waiter's load seeing room, its CAS.
	asv9 := append([]ev{{"g1", "region-begin", acqAt, "Sem.Acquire"}}, release(load, cas, ev{"g1", "region-end", acqAt, "Sem.Acquire"})...)
	p14 := "asv/asv-14 atomic T=t1-t2-t1-t2 SV=s1-s2-s2-s1 AR=u1-u2-u1-u2 AT=w-r-w-r"
	p9 := "asv/asv-9 atomic T=t1-t2-t2-t1 SV=s1-s1-s2-s2 AR=u1-u2-u2-u1 AT=w-r-r-w"
	rww := "av/RWW atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-w"
	// idx finds the n-th (from 1) event of run like e.
	idx := func(run []ev, e ev, n int) int {
		for i, x := range run {
			if x == e {
				if n--; n == 0 {
					return i
				}
			}
		}
		t.Fatalf("no %v", e)
		return -1
	}
	relCASEv, relWriteEv := ev{"g2", "atomic-rmw", relCAS, "state#1"}, ev{"g2", "write", relWrite, "ch#1"}
	an14 := func(run []ev) []int {
		return []int{idx(run, relCASEv, 1), idx(run, read, 1), idx(run, relWriteEv, 1), idx(run, reload, 1)}
	}
	lostUpdate := []ev{begin, {"g2", "atomic-load", relLoad, "state#1"}, load, cas, {"g2", "atomic-rmw", relCAS, "state#1"},
		{"g2", "lock", "x.go:3", "lock#1"}, {"g2", "read", relRead, "ch#1"}, relWriteEv, {"g2", "unlock", "x.go:4", "lock#1"}, {"g2", "close", "x.go:5", "chan#1"}, end}
	waited := asv14([]ev{{"g1", "recv", "x.go:6", "chan#1"}}, true)
	// The recv must follow the close: move it after Release's end.
	waited = append(append(waited[:8:8], waited[9:len(waited)-2]...), ev{"g1", "recv", "x.go:6", "chan#1"}, load, cas)
	wrote := asv14([]ev{{"g1", "write", "x.go:7", "seen#1"}}, true)
	unclosed := asv14(nil, true)
	unclosed = append(unclosed[:idx(unclosed, end, 1)], unclosed[idx(unclosed, end, 1)+1:]...)
	// handoff's duplicate Do (handoff.go:24 av): an explored replay
	// whose other goroutine ran after the unit; the interleaving the
	// failure followed is another unit's.
	outside := append(release(), load, cas)
	for _, tc := range []struct {
		name    string
		p       string
		run     []ev
		anomaly []int
		void    bool
	}{
		{":197 asv-9: the waiter's load after the CAS, its CAS, then the swap", p9, asv9, []int{idx(asv9, relCASEv, 1), idx(asv9, load, 1), idx(asv9, cas, 1), idx(asv9, relWriteEv, 1)}, true},
		{":197 asv-14: a void round inside, the acquire after the unit", p14, asv14(nil, true), an14(asv14(nil, true)), true},
		{":197 asv-14: a void round inside, the acquire inside after the CAS", p14, asv14([]ev{load, cas}, false), an14(asv14([]ev{load, cas}, false)), true},
		{"near miss: the waiter's CAS between Release's load and CAS", rww, lostUpdate, []int{1, 3, 4}, false},
		{"near miss: the waiter waited on the old channel", p14, waited, an14(waited), false},
		{"near miss: the waiter's round wrote", p14, wrote, an14(wrote), false},
		{"near miss: the unit never ends in the trace", p14, unclosed, an14(unclosed), false},
		{"near miss: no other goroutine's event of the anomaly inside the unit", p9, outside, []int{idx(outside, relCASEv, 1), idx(outside, load, 1), idx(outside, cas, 1), idx(outside, relWriteEv, 1)}, false},
	} {
		fs := []Finding{finding(tc.p, tc.run, tc.anomaly)}
		if !fs[0].Effect() {
			t.Fatalf("%s: no effect to judge", tc.name)
		}
		judgeDependence(loaded, "dep/casround", fs, &Report{})
		if fs[0].Effect() == tc.void {
			t.Errorf("%s: effect %v (control %q), want withdrawn %v", tc.name, fs[0].Effect(), fs[0].Control, tc.void)
		}
		if tc.void && !strings.Contains(fs[0].Control, "serial run") {
			t.Errorf("%s: control %q, want the serial run's", tc.name, fs[0].Control)
		}
	}
}
