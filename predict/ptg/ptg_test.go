package ptg_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/internal/oracle"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// TestAgainstOracle compares the compact PTG (vector clocks at TC events,
// interned locksets, regions built in one pass) with the oracle's direct
// definitions (transitive closure of the edges, locksets and regions
// computed independently) on random traces: POR for every pair of events,
// the lockset of every event, and the partition into regions.
func TestAgainstOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	n := 2000
	if testing.Short() {
		n = 200
	}
	for i := 0; i < n; i++ {
		tr := gen.Small(rng, gen.SmallOptions{Goroutines: 2 + i%3, MaxEvents: 14 + i%8})
		gr := ptg.Build(tr)
		m := oracle.New(tr)
		if len(gr.Warn) > 0 {
			t.Fatalf("trace %d: warnings on a valid trace: %v\n%s", i, gr.Warn, gen.Describe(tr))
		}
		ne := len(tr.Events)
		for a := 0; a < ne; a++ {
			for b := 0; b < ne; b++ {
				if got, want := gr.POR(int32(a), int32(b)), m.POR(a, b); got != want {
					t.Fatalf("trace %d: POR(%d, %d) = %v, oracle %v\n%s", i, a, b, got, want, gen.Describe(tr))
				}
			}
			if got, want := lockNames(gr, int32(a)), oracleLocks(tr, m, a); got != want {
				t.Fatalf("trace %d: lockset of %d = %q, oracle %q\n%s", i, a, got, want, gen.Describe(tr))
			}
		}
		// Regions: the same partition (ids may differ).
		fwd, back := map[int32]int{}, map[int]int32{}
		for e := 0; e < ne; e++ {
			r, o := gr.Region[e], m.Region(e)
			if (r < 0) != (o < 0) {
				t.Fatalf("trace %d: event %d region %d, oracle %d\n%s", i, e, r, o, gen.Describe(tr))
			}
			if r < 0 {
				continue
			}
			if x, ok := fwd[r]; ok && x != o {
				t.Fatalf("trace %d: region %d maps to oracle regions %d and %d\n%s", i, r, x, o, gen.Describe(tr))
			}
			if y, ok := back[o]; ok && y != r {
				t.Fatalf("trace %d: oracle region %d maps to regions %d and %d\n%s", i, o, y, r, gen.Describe(tr))
			}
			fwd[r], back[o] = o, r
		}
	}
}

func lockNames(gr *ptg.Graph, e int32) string {
	return strings.Join(gr.LockNames(gr.LockSet(e)), ",")
}

func oracleLocks(tr *trace.Trace, m *oracle.Model, e int) string {
	var names []string
	for _, h := range m.Lockset(e) {
		n := tr.Objects[h.Lock]
		if !h.Write {
			n += "(r)"
		}
		names = append(names, n)
	}
	return strings.Join(names, ",")
}

func build(t *testing.T, src string) *ptg.Graph {
	t.Helper()
	tr, err := trace.ReadTrace(strings.NewReader(src), t.Name(), trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ptg.Build(tr)
}

// TestGoRules checks each happens-before rule of DESIGN.md on a minimal
// trace: a is event number before, b after; want says whether a → b.
func TestGoRules(t *testing.T) {
	for _, tc := range []struct {
		name  string
		src   string
		a, b  int32 // 1-based event numbers
		order bool
	}{
		{"fork", "m write x\nm fork g\ng begin\ng read x", 1, 4, true},
		{"no fork edge to parent", "m fork g\ng write x\nm read x", 2, 3, false},
		{"join", "m fork g\ng write x\ng end\nm join g\nm read x", 2, 5, true},
		{"unbuffered send→recv", "a write x\na send c\nb recv c\nb read x", 1, 4, true},
		{"unbuffered recv→after send (trace order)", "a send c\nb write x\nb recv c\na read x", 2, 4, true},
		{"buffered send→recv", "a write x\na send c cap=1\nb recv c cap=1\nb read x", 1, 4, true},
		{"buffered recv does not order later send", "b write x\na send c cap=1\nb recv c cap=1\na read x", 1, 4, false},
		{"buffered k-th recv → (k+cap)-th send", "a send c cap=1\nb write x\nb recv c cap=1\na send c cap=1\na read x", 2, 5, true},
		{"close → closed recv", "a write x\na close c\nb recv c ok=false\nb read x", 1, 4, true},
		{"wg done → wait", "a write x\na wg-done w\nb wg-wait w\nb read x", 1, 4, true},
		{"wg add → wait is no edge", "a write x\na wg-add w delta=1\nb wg-wait w\nb read x", 1, 4, false},
		{"wg done of a goroutine that added itself is no edge", "m fork a\na begin\na wg-add w delta=1\na write x\na wg-done w\nm wg-wait w\nm read x", 4, 7, false},
		{"wg done after the waiter's add", "m wg-add w delta=1\nm fork a\na begin\na write x\na wg-done w\nm wg-wait w\nm read x", 4, 7, true},
		{"once first → later", "a write x\na once o\nb once o\nb read x", 1, 4, true},
		{"once later → later is no edge", "a once o\nb write x\nb once o\nc once o\nc read x", 2, 5, false},
		{"cond signal → wait", "a write x\na cond-signal c\nb cond-wait c\nb read x", 1, 4, true},
		{"atomic store → load", "a write x\na atomic-store f\nb atomic-load f\nb read x", 1, 4, true},
		{"atomic load → store is no edge", "b write x\nb atomic-load f\na atomic-store f\na read x", 1, 4, false},
		{"mutex is no edge", "a lock l\na write x\na unlock l\nb lock l\nb read x\nb unlock l", 2, 5, false},
		// A load that its own unit follows with a store of the object
		// starts a check-then-act: no edge from the store it read.
		{"check-then-act load takes no edge", "a read x\na atomic-store f\nb region-begin U\nb atomic-load f\nb read x\nb atomic-store f\nb region-end U", 1, 5, false},
		{"load outside a unit keeps its edge", "a write x\na atomic-store f\nb atomic-load f\nb read x\nb atomic-store f", 1, 4, true},
		{"load whose unit writes nothing keeps its edge", "a write x\na atomic-store f\nb region-begin U\nb atomic-load f\nb read x\nb region-end U\nb atomic-store f", 1, 5, true},
		// A load at the site of a check-then-act's load is that check,
		// even where its unit saw the key present and wrote nothing.
		{"load at an acting site takes no edge", "a write x\na region-begin U\na atomic-load f @r.go:3:1\na atomic-store f @r.go:4:1\na region-end U\nb region-begin U\nb atomic-load f @r.go:3:1\nb region-end U\nb read x", 1, 9, false},
		// …but one whose unit goes on to read an object that the storer
		// created before publishing it keeps its edge: it loaded the
		// pointer to that object (a CAS loop's snapshot), and moved
		// before the store it would load another one.
		{"load at an acting site that dereferences the storer's fresh object keeps its edge", "a write x\na region-begin U\na atomic-load f @r.go:3:1\na atomic-store f @r.go:4:1\na region-end U\nb region-begin U\nb atomic-load f @r.go:3:1\nb read x\nb region-end U", 4, 7, true},
		// An object created after the store is not published by it.
		{"load at an acting site: an object created after the store is no sign", "a region-begin U\na atomic-load f @r.go:3:1\na atomic-store f @r.go:4:1\na region-end U\na write x\nb region-begin U\nb atomic-load f @r.go:3:1\nb read x\nb region-end U", 3, 7, false},
		// Nor one another goroutine accessed before the storer wrote it.
		{"load at an acting site: an object read elsewhere first is no sign", "b read x\na write x\na region-begin U\na atomic-load f @r.go:3:1\na atomic-store f @r.go:4:1\na region-end U\nb region-begin U\nb atomic-load f @r.go:3:1\nb read x\nb region-end U", 5, 8, false},
		// Nor an access after the load's unit ended.
		{"load at an acting site: an access after its unit is no sign", "a write x\na region-begin U\na atomic-load f @r.go:3:1\na atomic-store f @r.go:4:1\na region-end U\nb region-begin U\nb atomic-load f @r.go:3:1\nb region-end U\nb read x", 4, 7, false},
		// …but not where its calling context differs: a getter's load
		// that its caller's unit acted on, reached from a plain function.
		{"load at an acting site in another context keeps its edge", "a write x\na region-begin D\na region-begin G\na atomic-load f @r.go:3:1\na region-end G\na atomic-store f @r.go:4:1\na region-end D\nb region-begin G\nb atomic-load f @r.go:3:1\nb region-end G\nb read x", 1, 11, true},
		{"load at another site keeps its edge", "a write x\na region-begin U\na atomic-load f @r.go:3:1\na atomic-store f @r.go:4:1\na region-end U\nb region-begin U\nb atomic-load f @r.go:9:1\nb region-end U\nb read x", 1, 9, true},
		{"load and store split by a channel op keep the edge", "a write x\na atomic-store f\nb region-begin U\nb atomic-load f\nb read x\nb send c cap=1\nb atomic-store f\nb region-end U", 1, 5, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gr := build(t, tc.src)
			if len(gr.Warn) > 0 {
				t.Fatalf("warnings: %v", gr.Warn)
			}
			if got := gr.POR(tc.a-1, tc.b-1); got != tc.order {
				t.Errorf("POR(%d, %d) = %v, want %v", tc.a, tc.b, got, tc.order)
			}
		})
	}
}

func TestLocksetsAndRegions(t *testing.T) {
	gr := build(t, `
a lock l
a rlock r
a read x
a runlock r
a write x
a unlock l
a read x
a region-begin T.M
a read x
a lock l
a send c cap=1
a write x
a unlock l
a region-end T.M
`)
	wantLocks := []string{"l", "l,r(r)", "l,r(r)", "l", "l", "", "", "", "", "l", "l", "l", "", ""}
	for i, w := range wantLocks {
		if got := lockNames(gr, int32(i)); got != w {
			t.Errorf("event %d: lockset %q, want %q", i+1, got, w)
		}
	}
	// One region for the critical section (events 1–6), none for 7, then
	// the unit split by the send (event 11): 8–10 and 12–14.
	wantReg := []int32{0, 0, 0, 0, 0, 0, -1, 1, 1, 1, -1, 2, 2, 2}
	for i, w := range wantReg {
		if got := gr.Region[i]; got != w {
			t.Errorf("event %d: region %d, want %d", i+1, got, w)
		}
	}
}

// TestSleepEndsUnit: a sleep splits a unit of work as a send does, and
// belongs to neither part.
func TestSleepEndsUnit(t *testing.T) {
	gr := build(t, `
a region-begin T.M
a atomic-rmw n
a sleep @t.go:3
a atomic-rmw n
a lock l
a write x
a unlock l
a region-end T.M
`)
	want := []int32{0, 0, -1, 1, 1, 1, 1, 1}
	for i, w := range want {
		if got := gr.Region[i]; got != w {
			t.Errorf("event %d: region %d, want %d", i+1, got, w)
		}
	}
}

func TestWarnings(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"a unlock l", "does not hold"},
		{"a lock l\na lock m\na unlock l\na unlock m", "non-nested unlock"},
		{"a lock l\nb lock l", "while another goroutine holds it"},
		{"b recv c\na send c", "before the matching send"},
		{"a send c\na write x\nb recv c", "went on after an unbuffered send"},
		{"a lock l\na lock l", "already holds"},
	} {
		gr := build(t, tc.src)
		if !strings.Contains(strings.Join(gr.Warn, "\n"), tc.want) {
			t.Errorf("%q: warnings %q, want one containing %q", tc.src, gr.Warn, tc.want)
		}
	}
	gr := build(t, "a lock l\na lock m\na unlock l\na unlock m")
	if !gr.Unsafe[0] || !gr.Unsafe[1] {
		t.Errorf("non-nested locks not marked unsafe: %v", gr.Unsafe)
	}
}

// TestSplitBetween: a unit's own unlock of the lock that guarded its
// accesses splits it on purpose (singleflight's Do); an unlock inside a
// method it calls (the demo's Deposit → Balance, Set), or after a critical
// section without accesses, does not.
func TestSplitBetween(t *testing.T) {
	gr := build(t, `
a region-begin G.Do
a lock mu
a write m
a unlock mu
a read fn
a lock mu
a write m
a unlock mu
a region-end G.Do
a region-begin A.Deposit
a region-begin A.Balance
a lock mu
a read b
a unlock mu
a region-end A.Balance
a region-begin A.Set
a lock mu
a write b
a unlock mu
a region-end A.Set
a region-end A.Deposit
a region-begin F.Fig3
a read x
a lock l
a unlock l
a write x
a region-end F.Fig3
`)
	for _, tc := range []struct {
		a, b int32 // event numbers
		want int32 // event number of the split, 0 for none
	}{
		{3, 7, 4}, {7, 3, 4}, {3, 4, 0}, {5, 7, 0},
		{13, 18, 0},
		{23, 26, 0},
	} {
		got := gr.SplitBetween(tc.a-1, tc.b-1) + 1
		if got != tc.want {
			t.Errorf("SplitBetween(%d, %d) = event %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestRecheckBetween: a unit that reads a flag holding no lock, then takes
// a lock in its own code and reads the flag again holding it (the
// double-checked idiom, ants's revertWorker) re-checks on purpose; one
// that does not read it again under the lock (a time-of-check-to-time-of-
// use bug), or whose lock is taken by a method it calls, or that read the
// flag under a lock already, does not.
func TestRecheckBetween(t *testing.T) {
	gr := build(t, `
a region-begin P.revert
a atomic-load closed
a lock mu
a atomic-load closed
a write items
a unlock mu
a region-end P.revert
a region-begin P.toctou
a atomic-load closed
a lock mu
a write items
a unlock mu
a region-end P.toctou
a region-begin P.nested
a atomic-load closed
a region-begin P.insert
a lock mu
a atomic-load closed
a write items
a unlock mu
a region-end P.insert
a region-end P.nested
a region-begin P.locked
a lock mu
a read closed
a unlock mu
a lock mu
a read closed
a write items
a unlock mu
a region-end P.locked
`)
	for _, tc := range []struct {
		a, b int32 // event numbers
		want int32 // event number of the acquire, 0 for none
	}{
		{2, 4, 3}, {2, 5, 3}, {5, 2, 3}, {4, 5, 0},
		{9, 11, 0},
		{15, 18, 0}, {15, 19, 0},
		{25, 28, 0}, {25, 29, 0},
	} {
		got := gr.RecheckBetween(tc.a-1, tc.b-1) + 1
		if got != tc.want {
			t.Errorf("RecheckBetween(%d, %d) = event %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestRereadUnderLock: an unlocked read, then a re-read of the same flag
// under a lock taken after it, in the unit's own code or in a method it
// calls (pond's wrapAndSubmit, then trySubmit), is a re-read under a
// lock; a lock taken without re-reading the flag, a flag first read under
// a lock already, or a later event outside any lock is not.
func TestRereadUnderLock(t *testing.T) {
	gr := build(t, `
a region-begin P.nested
a atomic-load closed
a region-begin P.insert
a lock mu
a atomic-load closed
a write items
a unlock mu
a region-end P.insert
a region-end P.nested
a region-begin P.toctou
a atomic-load closed
a region-begin P.insert
a lock mu
a write items
a unlock mu
a region-end P.insert
a write other
a region-end P.toctou
a region-begin P.locked
a lock mu
a read closed
a unlock mu
a lock mu
a read closed
a write items
a unlock mu
a region-end P.locked
`)
	for _, tc := range []struct {
		a, b int32 // event numbers
		want bool
	}{
		{2, 5, true}, {2, 6, true}, {5, 2, false},
		{11, 14, false}, {11, 17, false},
		{21, 24, false}, {21, 25, false},
	} {
		if got := gr.RereadUnderLock(tc.a-1, tc.b-1); got != tc.want {
			t.Errorf("RereadUnderLock(%d, %d) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestActingRead checks which events an acting pattern's remote read may
// bind: atomic loads at a site where some load decided a store.
func TestActingRead(t *testing.T) {
	gr := build(t, `a region-begin U
a atomic-load f @r.go:3:1
a atomic-store f @r.go:4:1
a region-end U
b region-begin U
b atomic-load f @r.go:3:1
b region-end U
b atomic-load f @r.go:9:1
b atomic-rmw f @r.go:3:1
`)
	want := []bool{false, true, false, false, false, true, false, false, false}
	for i, w := range want {
		if got := gr.ActingRead(int32(i)); got != w {
			t.Errorf("ActingRead(event %d) = %v, want %v", i+1, got, w)
		}
	}
}

// TestActingReadContext checks that an acting load is one in the calling
// context where its value decided a write: a getter the purger's method
// acts on (pond's decrementWorkerCount → RunningWorkers) is no check where
// a test calls it to read the count, but is one in the same method called
// from elsewhere, or where that call returned early.
func TestActingReadContext(t *testing.T) {
	gr := build(t, `p region-begin Pool.dec
p lock mu
p region-begin Pool.Running
p atomic-load n @pool.go:158:1
p region-end Pool.Running
p atomic-rmw n @pool.go:511:1 update=add
p unlock mu
p region-end Pool.dec
t region-begin Pool.Running
t atomic-load n @pool.go:158:1
t region-end Pool.Running
q region-begin Pool.purge
q region-begin Pool.dec
q lock mu
q region-begin Pool.Running
q atomic-load n @pool.go:158:1
q region-end Pool.Running
q unlock mu
q region-end Pool.dec
q region-end Pool.purge
`)
	acting := map[int]bool{4: true, 16: true}
	for i := range gr.Tr.Events {
		if got := gr.ActingRead(int32(i)); got != acting[i+1] {
			t.Errorf("ActingRead(event %d) = %v, want %v", i+1, got, acting[i+1])
		}
	}
}
