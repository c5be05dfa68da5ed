package oracle

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/pattern"
)

func builtin(t testing.TB, name string) []*pattern.Pattern {
	t.Helper()
	pats, ok := pattern.Builtin(name)
	if !ok {
		t.Fatalf("no built-in pattern set %q", name)
	}
	return pats
}

func find(t testing.TB, pats []*pattern.Pattern, id string) *pattern.Pattern {
	t.Helper()
	for _, p := range pats {
		if p.ID() == id {
			return p
		}
	}
	t.Fatalf("no pattern %s", id)
	return nil
}

// ev returns the index of the event at site s (sites are unique in the
// hand-made traces).
func ev(t testing.TB, tr *trace.Trace, s string) int {
	t.Helper()
	for i, e := range tr.Events {
		if tr.Site(e) == s {
			return i
		}
	}
	t.Fatalf("no event at site %s", s)
	return -1
}

func mustFeasibleIdentity(t testing.TB, m *Model) {
	t.Helper()
	id := make([]int, m.Len())
	for i := range id {
		id[i] = i
	}
	if err := m.CheckSchedule(id); err != nil {
		t.Fatalf("trace order is not feasible: %v\n%s", err, gen.Describe(m.Trace()))
	}
}

func keys(w map[string]Witness) []string {
	var ks []string
	for k := range w {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// checkReal asserts that inst of p is real (or not) and that a returned
// schedule is feasible and realizes it.
func checkReal(t *testing.T, m *Model, p *pattern.Pattern, inst []int, want bool) []int {
	t.Helper()
	if !m.IsInstance(p, inst) {
		t.Fatalf("%v is not an instance of %s", inst, p.ID())
	}
	s, ok := m.Real(p, inst)
	if ok != want {
		t.Fatalf("Real(%s, %v) = %v (schedule %v), want %v\n%s", p.ID(), inst, ok, s, want, gen.Describe(m.Trace()))
	}
	if ok {
		if err := m.CheckSchedule(s); err != nil {
			t.Fatalf("witness schedule %v infeasible: %v", s, err)
		}
		if !m.Realizes(p, inst, s) {
			t.Fatalf("witness schedule %v does not realize %v", s, inst)
		}
	}
	return s
}

func TestFigure1Race(t *testing.T) {
	// Trace order ⟨1,5,2,3,6,7⟩: T1 runs 1,2,3 and T2 runs 5,6,7.
	tr := gen.MustParse(`
		T1 write x @1
		T2 lock l @5
		T1 read z @2
		T1 read y @3
		T2 unlock l @6
		T2 write y @7
	`)
	m := New(tr)
	mustFeasibleIdentity(t, m)
	races := builtin(t, "race")
	e3, e7 := ev(t, tr, "3"), ev(t, tr, "7")
	s := checkReal(t, m, find(t, races, "race/WR"), []int{e7, e3}, true)
	if n := len(s); s[n-2] != e7 || s[n-1] != e3 {
		t.Errorf("schedule %v: want the write of y immediately before the read", s)
	}
	checkReal(t, m, find(t, races, "race/RW"), []int{e3, e7}, true)
	got := keys(m.RealKeys(races))
	if want := []string{"r@3|w@7"}; !slices.Equal(got, want) {
		t.Errorf("RealKeys = %q, want %q", got, want)
	}
}

func TestLockProtectedNotReal(t *testing.T) {
	tr := gen.MustParse(`
		T1 lock l @1
		T1 write x @2
		T1 unlock l @3
		T2 lock l @4
		T2 read x @5
		T2 unlock l @6
	`)
	m := New(tr)
	mustFeasibleIdentity(t, m)
	if got := m.RealKeys(builtin(t, "all")); len(got) != 0 {
		t.Errorf("RealKeys = %q, want none", keys(got))
	}
	if !m.Lockset(ev(t, tr, "2")).Conflicts(m.Lockset(ev(t, tr, "5"))) {
		t.Errorf("locksets %v and %v should conflict", m.Lockset(1), m.Lockset(4))
	}
	// Read locks do not exclude each other.
	tr = gen.MustParse(`
		T1 rlock l @1
		T1 read x @2
		T1 runlock l @3
		T2 rlock l @4
		T2 write x @5
		T2 runlock l @6
	`)
	m = New(tr)
	mustFeasibleIdentity(t, m)
	if m.Lockset(1).Conflicts(m.Lockset(4)) {
		t.Errorf("read locksets %v and %v should not conflict", m.Lockset(1), m.Lockset(4))
	}
	if got := keys(m.RealKeys(builtin(t, "race"))); !slices.Equal(got, []string{"r@2|w@5"}) {
		t.Errorf("RealKeys = %q, want the read-locked race", got)
	}
}

func TestForkOrdered(t *testing.T) {
	tr := gen.MustParse(`
		main write x @1
		main fork g1 @2
		main write x @3
		g1 begin
		g1 read x @4
		g1 end
		main join g1 @5
		main read x @6
	`)
	m := New(tr)
	mustFeasibleIdentity(t, m)
	got := keys(m.RealKeys(builtin(t, "race")))
	// 1 happens before the fork and 6 after the join; only 3 races with 4.
	if want := []string{"r@4|w@3"}; !slices.Equal(got, want) {
		t.Errorf("RealKeys = %q, want %q", got, want)
	}
	if !m.POR(0, ev(t, tr, "4")) || !m.POR(ev(t, tr, "4"), ev(t, tr, "6")) || m.POR(ev(t, tr, "3"), ev(t, tr, "4")) {
		t.Errorf("POR wrong: edges %v", m.Edges())
	}
}

func TestUnbufferedHandoff(t *testing.T) {
	// The send happens before the receive, and (unbuffered) the receive
	// happens before the sender's next event.
	tr := gen.MustParse(`
		main fork g1 @0
		g1 write x @1
		main read y @2
		g1 send ch @3
		main recv ch @4
		main read x @5
		g1 write y @6
	`)
	m := New(tr)
	mustFeasibleIdentity(t, m)
	if got := m.RealKeys(builtin(t, "race")); len(got) != 0 {
		t.Errorf("unbuffered: RealKeys = %q, want none", keys(got))
	}
	// With a buffer, the receive no longer orders the sender's next event.
	tr = gen.MustParse(strings.ReplaceAll(`
		main fork g1 @0
		g1 write x @1
		main read y @2
		g1 send ch @3 CAP
		main recv ch @4 CAP
		main read x @5
		g1 write y @6
	`, "CAP", "cap=1"))
	m = New(tr)
	mustFeasibleIdentity(t, m)
	if got, want := keys(m.RealKeys(builtin(t, "race"))), []string{"r@2|w@6"}; !slices.Equal(got, want) {
		t.Errorf("buffered: RealKeys = %q, want %q", got, want)
	}
}

func TestAVThroughGap(t *testing.T) {
	const src = `
		T1 region-begin T.Get @1
		T1 lock l @2
		T1 read x @3
		T1 unlock l @4
		T1 lock l @5
		T1 read x @6
		T1 unlock l @7
		T1 region-end T.Get @8
		T2 lock l @9
		T2 write x @10
		T2 unlock l @11
	`
	tr := gen.MustParse(src)
	m := New(tr)
	mustFeasibleIdentity(t, m)
	rwr := find(t, builtin(t, "av"), "av/RWR")
	e3, e6, e10 := ev(t, tr, "3"), ev(t, tr, "6"), ev(t, tr, "10")
	if m.Region(e3) < 0 || m.Region(e3) != m.Region(e6) || m.Region(e10) < 0 || m.Region(e10) == m.Region(e3) {
		t.Fatalf("regions %d %d %d", m.Region(e3), m.Region(e6), m.Region(e10))
	}
	s := checkReal(t, m, rwr, []int{e3, e10, e6}, true)
	// T2's critical section runs in the gap between T1's.
	if i, j := slices.Index(s, ev(t, tr, "9")), slices.Index(s, ev(t, tr, "4")); i < j {
		t.Errorf("schedule %v: T2 locks before T1's first unlock", s)
	}
	// Without the gap the violation is impossible.
	tr = gen.MustParse(`
		T1 region-begin T.Get @1
		T1 lock l @2
		T1 read x @3
		T1 read x @6
		T1 unlock l @7
		T1 region-end T.Get @8
		T2 lock l @9
		T2 write x @10
		T2 unlock l @11
	`)
	m = New(tr)
	checkReal(t, m, rwr, []int{ev(t, tr, "3"), ev(t, tr, "10"), ev(t, tr, "6")}, false)
}

func TestFigure5(t *testing.T) {
	// v2 → v5 (send → receive) makes the race (v3, v8) impossible: v8 needs
	// T2's critical section v6–v7, which cannot run while T1 holds l at v3
	// nor before T1's v1 (v5 needs v2).
	tr := gen.MustParse(`
		T1 lock l @v1
		T1 send ch @v2 cap=1
		T1 write x @v3
		T1 unlock l @v4
		T2 recv ch @v5 cap=1
		T2 lock l @v6
		T2 unlock l @v7
		T2 write x @v8
	`)
	m := New(tr)
	mustFeasibleIdentity(t, m)
	ww := find(t, builtin(t, "race"), "race/WW")
	v := func(s string) int { return ev(t, tr, s) }
	if !m.POR(v("v2"), v("v5")) {
		t.Fatalf("no POR v2→v5; edges %v", m.Edges())
	}
	checkReal(t, m, ww, []int{v("v3"), v("v8")}, false)
	checkReal(t, m, ww, []int{v("v8"), v("v3")}, false)
	if got := m.RealKeys(builtin(t, "race")); len(got) != 0 {
		t.Errorf("RealKeys = %q, want none", keys(got))
	}

	// Without the POR, T2 can run its critical section first.
	tr = gen.MustParse(`
		T1 lock l @v1
		T1 read y @v2
		T1 write x @v3
		T1 unlock l @v4
		T2 read z @v5
		T2 lock l @v6
		T2 unlock l @v7
		T2 write x @v8
	`)
	m = New(tr)
	mustFeasibleIdentity(t, m)
	checkReal(t, m, ww, []int{v("v3"), v("v8")}, true)
	paper := []int{v("v5"), v("v6"), v("v7"), v("v1"), v("v2"), v("v3"), v("v8")}
	if err := m.CheckSchedule(paper); err != nil || !m.Realizes(ww, []int{v("v3"), v("v8")}, paper) {
		t.Errorf("paper's schedule: %v", err)
	}
	// Lock exclusion: T2 cannot lock while T1 holds l.
	bad := []int{v("v1"), v("v5"), v("v6")}
	if err := m.CheckSchedule(bad); err == nil || !strings.Contains(err.Error(), "position 2") {
		t.Errorf("CheckSchedule(%v) = %v, want a lock error at position 2", bad, err)
	}
}

func TestCheckScheduleErrors(t *testing.T) {
	tr := gen.MustParse(`
		main fork g1 @1
		g1 write x @2
		main read x @3
	`)
	m := New(tr)
	for _, c := range []struct {
		s    []int
		want string
	}{
		{[]int{0, 1, 2}, ""},
		{[]int{0, 2, 1}, ""},
		{[]int{0}, ""},
		{[]int{1}, "position 0: event 1 (g1 write x) runs before its POR predecessor event 0"},
		{[]int{2, 0}, "position 0: event 2 (main read x) runs before its program-order predecessor"},
		{[]int{0, 0}, "position 1: event 0 (main fork g1) appears twice"},
		{[]int{0, 7}, "position 1: event 7 out of range"},
	} {
		err := m.CheckSchedule(c.s)
		if (err == nil) != (c.want == "") || (err != nil && !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("CheckSchedule(%v) = %v, want %q", c.s, err, c.want)
		}
	}
}

func TestRegions(t *testing.T) {
	tr := gen.MustParse(`
		T1 read x @1
		T1 lock a @2
		T1 read x @3
		T1 region-begin U @4
		T1 unlock a @5
		T1 read x @6
		T1 send ch @7
		T1 read x @8
		T1 region-end U @9
		T1 read x @10
		T1 rlock b @11
		T1 lock a @12
		T1 unlock a @13
		T1 runlock b @14
		T1 lock a @15
		T1 unlock a @16
		T1 lock a @17
	`)
	m := New(tr)
	reg := func(s string) int { return m.Region(ev(t, tr, s)) }
	// 2..9 is one component (the critical section 2–5 overlaps the unit
	// 4–9), split at the send 7.
	for _, s := range []string{"1", "7", "10"} {
		if r := reg(s); r != -1 {
			t.Errorf("event @%s in region %d, want none", s, r)
		}
	}
	for _, s := range []string{"3", "4", "5", "6"} {
		if reg(s) != reg("2") || reg(s) < 0 {
			t.Errorf("event @%s in region %d, want %d", s, reg(s), reg("2"))
		}
	}
	if reg("8") != reg("9") || reg("8") < 0 || reg("8") == reg("2") {
		t.Errorf("events @8 @9 in regions %d %d", reg("8"), reg("9"))
	}
	if reg("11") < 0 || reg("11") != reg("14") || reg("15") == reg("14") || reg("15") != reg("16") {
		t.Errorf("regions 11..16: %d %d %d %d", reg("11"), reg("14"), reg("15"), reg("16"))
	}
	if reg("17") < 0 || reg("17") == reg("15") {
		t.Errorf("unreleased lock: region %d", reg("17"))
	}
	// Objects: x 0, a 1, U 2, ch 3, b 4.
	if got := fmt.Sprint(m.Lockset(ev(t, tr, "12"))); got != "[{1 true} {4 false}]" {
		t.Errorf("lockset of @12 = %s", got)
	}
	if got := m.Lockset(ev(t, tr, "13")); len(got) != 1 || got[0].Write {
		t.Errorf("lockset of @13 = %v", got)
	}
}

func TestInstancesConstraints(t *testing.T) {
	tr := gen.MustParse(`
		T1 region-begin U @1
		T1 read x @2
		T1 read x @3
		T1 region-end U @4
		T1 read x @5
		T2 write x @6
		T2 atomic-store x @7
		T1 atomic-load x @8
	`)
	m := New(tr)
	av := builtin(t, "av")
	rwr := find(t, av, "av/RWR")
	// Only (2, 6|7, 3): 5 and 8 are outside U; 7 matches because av is atomic.
	var got []string
	for _, inst := range m.Instances(rwr) {
		got = append(got, fmt.Sprint(inst))
	}
	if want := []string{"[1 5 2]", "[1 6 2]"}; !slices.Equal(got, want) {
		t.Errorf("Instances(RWR) = %v, want %v", got, want)
	}
	// A race may bind a sync/atomic access against a plain one (as -race
	// reports them), never two sync/atomic accesses: not (7 6).
	got = nil
	for _, inst := range m.Instances(find(t, builtin(t, "race"), "race/RW")) {
		got = append(got, fmt.Sprint(inst))
	}
	if want := []string{"[1 5]", "[1 6]", "[2 5]", "[2 6]", "[4 5]", "[4 6]", "[7 5]"}; !slices.Equal(got, want) {
		t.Errorf("Instances(race/RW) = %v, want %v", got, want)
	}
}

// allSchedules enumerates every feasible schedule (every prefix of every
// execution) by extending schedules one event at a time and asking
// CheckSchedule: a slow, independent cross-check of Real's search.
func allSchedules(m *Model, visit func(s []int)) {
	var s []int
	var rec func()
	rec = func() {
		visit(s)
		for e := range m.Len() {
			if slices.Contains(s, e) {
				continue
			}
			s = append(s, e)
			if m.CheckSchedule(s) == nil {
				rec()
			}
			s = s[:len(s)-1]
		}
	}
	rec()
}

func TestRealAgainstEnumeration(t *testing.T) {
	pats := builtin(t, "all")
	rng := newRand(1)
	checked, real := 0, 0
	for iter := range 1500 {
		opt := gen.SmallOptions{MaxEvents: 9, NoBeginEnd: iter%2 == 0}
		if iter%3 == 0 {
			opt.Goroutines, opt.MaxEvents = 3, 11
		}
		tr := gen.Small(rng, opt)
		m := New(tr)
		mustFeasibleIdentity(t, m)
		type pi struct {
			p    *pattern.Pattern
			inst []int
		}
		var all []pi
		for _, p := range pats {
			for _, inst := range m.Instances(p) {
				all = append(all, pi{p, inst})
			}
		}
		realized := make([]bool, len(all))
		allSchedules(m, func(s []int) {
			for i, x := range all {
				if !realized[i] && m.Realizes(x.p, x.inst, s) {
					realized[i] = true
				}
			}
		})
		for i, x := range all {
			s, ok := m.Real(x.p, x.inst)
			checked++
			if ok != realized[i] {
				t.Fatalf("trace %d: Real(%s, %v) = %v, enumeration says %v\n%s", iter, x.p.ID(), x.inst, ok, realized[i], gen.Describe(tr))
			}
			if ok {
				real++
				if err := m.CheckSchedule(s); err != nil || !m.Realizes(x.p, x.inst, s) {
					t.Fatalf("bad witness %v: %v", s, err)
				}
			}
		}
	}
	t.Logf("%d instances checked, %d real", checked, real)
	if checked-real < 100 {
		t.Errorf("only %d instances are not real: the cross-check is weak", checked-real)
	}
}

func TestWitnessProperties(t *testing.T) {
	pats := builtin(t, "all")
	rng := newRand(2)
	for iter := range 1500 {
		tr := gen.Small(rng, gen.SmallOptions{})
		m := New(tr)
		mustFeasibleIdentity(t, m)
		for key, w := range m.RealKeys(pats) {
			fail := func(format string, args ...any) {
				t.Fatalf("trace %d, %s %v (%s), schedule %v: %s\n%s", iter, w.Pattern.ID(), w.Inst, key, w.Schedule,
					fmt.Sprintf(format, args...), gen.Describe(tr))
			}
			if !m.IsInstance(w.Pattern, w.Inst) {
				fail("not an instance")
			}
			if err := m.CheckSchedule(w.Schedule); err != nil {
				fail("infeasible: %v", err)
			}
			if !m.Realizes(w.Pattern, w.Inst, w.Schedule) {
				fail("not realized")
			}
			// The schedule respects the transitive POR.
			for i, a := range w.Schedule {
				for _, b := range w.Schedule[i+1:] {
					if m.POR(b, a) {
						fail("POR(%d, %d) but %d runs first", b, a, a)
					}
				}
			}
			// Adjacent accesses cannot hold conflicting locks.
			if w.Pattern.Adjacent && m.Lockset(w.Inst[0]).Conflicts(m.Lockset(w.Inst[1])) {
				fail("conflicting locksets %v %v", m.Lockset(w.Inst[0]), m.Lockset(w.Inst[1]))
			}
		}
	}
}

func TestEdges(t *testing.T) {
	tr := gen.MustParse(`
		A wg-add wg delta=-1
		B wg-done wg
		A wg-wait wg
		A once o
		B once o
		A cond-signal c
		A cond-broadcast c
		B cond-wait c
		A atomic-store a
		B atomic-load a
		B atomic-rmw a
		A atomic-load a
		A send ch cap=1
		A send ch cap=1
		B recv ch cap=1
		B recv ch cap=1
		A close ch cap=1
		B recv ch cap=1 ok=false
		A fork C
		C read x
		A join C
		A send u
		B recv u
		A read x
	`)
	m := New(tr)
	want := [][2]int{{0, 2}, {1, 2}, {3, 4}, {6, 7}, {8, 9}, {8, 10}, {10, 11}, {12, 14}, {13, 15}, {14, 13},
		{16, 17}, {18, 19}, {19, 20}, {21, 22}, {22, 23}}
	if got := m.Edges(); !slices.Equal(got, want) {
		t.Errorf("Edges = %v\nwant    %v", got, want)
	}
	if !m.POR(12, 15) || !m.POR(1, 23) || m.POR(23, 1) || !m.POR(9, 10) || m.POR(9, 8) {
		t.Error("closure wrong")
	}
}

// TestCommutingUpdates: atomic Adds against Adds of one object are no
// instance of an atomicity pattern; an Or against Adds is.
func TestCommutingUpdates(t *testing.T) {
	const src = `
		T1 fork T2 @1
		T1 region-begin P.run @2
		T1 atomic-rmw n @3 update=add
		T2 begin
		T2 atomic-rmw n @4 REMOTE
		T1 atomic-rmw n @5 update=add
		T1 region-end P.run @6
	`
	www := find(t, builtin(t, "av"), "av/WWW")
	for _, tc := range []struct {
		remote string
		want   int
	}{{"update=add", 0}, {"update=or", 1}, {"", 1}} {
		tr := gen.MustParse(strings.Replace(src, "REMOTE", tc.remote, 1))
		m := New(tr)
		inst := []int{ev(t, tr, "3"), ev(t, tr, "4"), ev(t, tr, "5")}
		if got := len(m.Instances(www)); got != tc.want {
			t.Errorf("remote %q: %d instances, want %d", tc.remote, got, tc.want)
		}
		if got := m.IsInstance(www, inst); got != (tc.want == 1) {
			t.Errorf("remote %q: IsInstance = %v", tc.remote, got)
		}
	}
}
