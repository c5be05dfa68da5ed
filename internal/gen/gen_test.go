package gen

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/oracle"
)

func identity(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func checkValid(t *testing.T, tr *trace.Trace) {
	t.Helper()
	if err := tr.Check(); err != nil {
		t.Fatalf("Check: %v\n%s", err, Describe(tr))
	}
	if err := oracle.New(tr).CheckSchedule(identity(len(tr.Events))); err != nil {
		t.Fatalf("trace order infeasible: %v\n%s", err, Describe(tr))
	}
}

func TestSmallValid(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	seen := map[string]int{}
	note := func(what string, ok bool) {
		if ok {
			seen[what]++
		}
	}
	const N = 3000
	for i := range N {
		opt := SmallOptions{}
		if i%5 == 0 {
			opt.MaxEvents = 1 + rng.IntN(20)
		}
		tr := Small(rng, opt)
		checkValid(t, tr)
		max := opt.MaxEvents
		if max == 0 {
			max = 14
		}
		if max >= 8 && len(tr.Events) > max {
			t.Fatalf("%d events, want at most about %d\n%s", len(tr.Events), max, Describe(tr))
		}
		// Round trip through the text form.
		back, err := Parse(Describe(tr))
		if err != nil {
			t.Fatalf("Parse(Describe): %v\n%s", err, Describe(tr))
		}
		if Describe(back) != Describe(tr) {
			t.Fatalf("round trip changed the trace:\n%s\n%s", Describe(tr), Describe(back))
		}
		// Feature coverage.
		siteG := map[int32]int32{}
		for _, e := range tr.Events {
			note(e.Op.String(), true)
			note("unbuffered send", e.Op == trace.Send && e.Arg == 0)
			note("buffered send", e.Op == trace.Send && e.Arg > 0)
			note("closed recv", e.Op == trace.Recv && e.Flags&trace.FlagClosed != 0)
			note("negative wg-add", e.Op == trace.WGAdd && e.Arg < 0)
			if e.Op.IsAccess() && e.Site >= 0 {
				if g, ok := siteG[e.Site]; ok && g != e.G {
					note("site shared by goroutines", true)
				}
				siteG[e.Site] = e.G
			}
		}
		note("3 goroutines", len(tr.Goroutines) == 3)
		note("2 goroutines", len(tr.Goroutines) == 2)
	}
	for _, what := range []string{
		"read", "write", "atomic-load", "atomic-store", "atomic-rmw", "lock", "unlock", "rlock", "runlock",
		"fork", "join", "begin", "end", "send", "recv", "close", "wg-add", "wg-done", "wg-wait", "once",
		"region-begin", "region-end", "unbuffered send", "buffered send", "closed recv", "negative wg-add",
		"site shared by goroutines", "3 goroutines", "2 goroutines",
	} {
		if seen[what] == 0 {
			t.Errorf("no trace has %s", what)
		}
	}
	t.Logf("feature counts over %d traces: %v", N, seen)
}

func TestSmallOptions(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for range 500 {
		tr := Small(rng, SmallOptions{Goroutines: 3, NoLocks: true, NoChannels: true, NoAtomics: true,
			NoRegions: true, NoWaitGroups: true, NoOnce: true, NoBeginEnd: true})
		checkValid(t, tr)
		for _, e := range tr.Events {
			switch e.Op {
			case trace.Read, trace.Write, trace.Fork, trace.Join:
			default:
				t.Fatalf("unexpected %s\n%s", e.Op, Describe(tr))
			}
		}
	}
}

func TestSmallBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for i := range 500 {
		opt := SmallOptions{Goroutines: 1 + i%6, Locks: 1 + i%4, Locations: 1 + i%7, MaxEvents: 10 + i%30}
		tr := Small(rng, opt)
		checkValid(t, tr)
		if len(tr.Goroutines) > opt.Goroutines {
			t.Fatalf("%d goroutines\n%s", len(tr.Goroutines), Describe(tr))
		}
	}
}

func TestSmallDeterministic(t *testing.T) {
	a := Describe(Small(rand.New(rand.NewPCG(7, 7)), SmallOptions{}))
	b := Describe(Small(rand.New(rand.NewPCG(7, 7)), SmallOptions{}))
	if a != b {
		t.Errorf("same seed, different traces:\n%s\n%s", a, b)
	}
}

func TestParse(t *testing.T) {
	tr, err := Parse(`
		# a comment
		main fork g1 @m.go:1   # 0
		g1 begin
		g1 send ch @w.go:1 cap=2
		main recv ch closed
		main recv ch ok=false
		main wg-add wg
		main wg-add wg delta=-3
	`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"main fork g1 @m.go:1", "g1 begin", "g1 send ch @w.go:1 cap=2", "main recv ch ok=false",
		"main recv ch ok=false", "main wg-add wg delta=1", "main wg-add wg delta=-3",
	}
	for i, line := range strings.Split(strings.TrimSuffix(Describe(tr), "\n"), "\n") {
		if got := strings.TrimSpace(line); got != fmt.Sprintf("%-40s # %d", want[i], i) {
			t.Errorf("line %d: %q, want %q", i, got, want[i])
		}
	}
	for _, bad := range []string{"main", "main frob x", "main read", "main read @x", "main read x cap=1", "g1 begin x"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) succeeded", bad)
		}
	}
}

func TestLargeValid(t *testing.T) {
	for _, opt := range []LargeOptions{
		{Events: 20000, Seed: 1},
		{Events: 20000, Goroutines: 3, Locations: 5, Locks: 2, ChannelDensity: 0.1, Seed: 2},
		{Events: 20000, Goroutines: 16, Locations: 200, Locks: 1, ChannelDensity: 0.02, Seed: 3},
		{Events: 5000, Goroutines: 2, Locations: 1, Locks: 3, ChannelDensity: 0.5, Seed: 4},
		{Events: 3, Goroutines: 4, Seed: 5},
		{Events: 40, Goroutines: 4, ChannelDensity: 0.2, Seed: 6},
		{Events: 1, Goroutines: 1, Seed: 7},
	} {
		tr := Large(opt)
		if len(tr.Events) != opt.Events {
			t.Errorf("%+v: %d events", opt, len(tr.Events))
		}
		checkValid(t, tr)
		counts := map[trace.Op]int{}
		for _, e := range tr.Events {
			counts[e.Op]++
		}
		ch := counts[trace.Send] + counts[trace.Recv]
		if opt.Events >= 5000 {
			density := float64(ch) / float64(len(tr.Events))
			if density < opt.ChannelDensity*0.8 || density > opt.ChannelDensity*1.2+0.001 {
				t.Errorf("%+v: channel density %.3f", opt, density)
			}
			for _, op := range []trace.Op{trace.Read, trace.Write, trace.Lock, trace.RLock, trace.AtomicRMW, trace.RegionBegin} {
				if counts[op] == 0 {
					t.Errorf("%+v: no %s", opt, op)
				}
			}
		}
		t.Logf("%+v: %v", opt, counts)
	}
}

func TestLargeStream(t *testing.T) {
	opt := LargeOptions{Events: 10000, ChannelDensity: 0.05, Seed: 9}
	whole := Large(opt)
	i := 0
	err := LargeStream(opt, func(e trace.Event, tabs *trace.Tables) error {
		if e != whole.Events[i] {
			t.Fatalf("event %d differs", i)
		}
		if tabs.Name(trace.TabGoroutine, e.G) == "" || (e.Site >= 0 && tabs.Site(e) == "") {
			t.Fatalf("event %d: names missing from the tables", i)
		}
		i++
		return nil
	})
	if err != nil || i != opt.Events {
		t.Fatalf("LargeStream: %v after %d events", err, i)
	}
	stop := errors.New("enough")
	n := 0
	err = LargeStream(opt, func(trace.Event, *trace.Tables) error {
		n++
		if n == 100 {
			return stop
		}
		return nil
	})
	if err != stop || n != 100 {
		t.Errorf("LargeStream with a failing callback: %v after %d events", err, n)
	}
}

func TestLargeSpeed(t *testing.T) {
	opt := LargeOptions{Events: 2_000_000, ChannelDensity: 0.02, Seed: 1}
	start := time.Now()
	n := 0
	if err := LargeStream(opt, func(trace.Event, *trace.Tables) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	d := time.Since(start)
	t.Logf("%d events in %v: %.1fM events/s", n, d, float64(n)/d.Seconds()/1e6)
}

func BenchmarkLargeStream(b *testing.B) {
	opt := LargeOptions{Events: 1_000_000, ChannelDensity: 0.02, Seed: 1}
	b.ReportAllocs()
	for range b.N {
		if err := LargeStream(opt, func(trace.Event, *trace.Tables) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(opt.Events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

func TestDescribeSharedSites(t *testing.T) {
	// Describe names sites, so shared code shows up as shared sites.
	rng := rand.New(rand.NewPCG(3, 3))
	for range 200 {
		d := Describe(Small(rng, SmallOptions{Goroutines: 3}))
		if strings.Contains(d, "g1 ") && strings.Contains(d, "g2 ") {
			return
		}
	}
	t.Error("no 3-goroutine trace with both children running")
}
