package predict

import (
	"slices"
	"strings"
	"testing"
)

// counter: a unit increments and decrements a counter around its work
// (conc's running-goroutines counter) and another goroutine's increment
// falls between (atomics synchronize, so only an observed interleaving is
// one).
const counter = `
T1 fork T2 @c.go:1
T1 region-begin Pool.run @c.go:2
T1 atomic-rmw n @c.go:3 update=add
T2 begin
T2 atomic-rmw n @c.go:10 update=add
T1 read work @c.go:4
T1 atomic-rmw n @c.go:5 update=add
T1 region-end Pool.run @c.go:6
`

func TestCommutingUpdates(t *testing.T) {
	pats := builtin(t, "av", "asv")
	res, err := Run(parse(t, counter), pats, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Anomalies) != 0 {
		t.Errorf("Add against Add: got %s %s, want no anomaly", res.Anomalies[0].Pattern.ID(), numbers(res.Anomalies[0].Events))
	}
	// A remote update of another kind (Swap, or an Or against Adds) does
	// not commute: the violation stays.
	for _, remote := range []string{"T2 atomic-rmw n @c.go:10\n", "T2 atomic-rmw n @c.go:10 update=or\n"} {
		src := strings.Replace(counter, "T2 atomic-rmw n @c.go:10 update=add\n", remote, 1)
		res, err := Run(parse(t, src), pats, Options{})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, a := range res.Anomalies {
			found = found || a.Pattern.ID() == "av/WWW" && numbers(a.Events) == "<3,5,7>"
		}
		if !found {
			t.Errorf("remote %q: no av/WWW <3,5,7> among %d anomalies", strings.TrimSpace(remote), len(res.Anomalies))
		}
	}
}

// purge: pond's purger checks the idle-worker count, then decrements it
// (one unit); a worker's increment, a statement of its own in a region
// that touches the count no other way, falls between.
const purge = `
T1 fork T2 @p.go:1
T1 region-begin Pool.purge @p.go:2
T1 atomic-load idle @p.go:3
T2 begin
T2 region-begin Pool.execute @p.go:10
T2 atomic-rmw idle @p.go:11 update=add-unused
T2 region-end Pool.execute @p.go:12
T1 atomic-rmw idle @p.go:4 update=add-unused
T1 region-end Pool.purge @p.go:5
`

// TestUnobservedUpdates: placing the worker's increment after the unit
// changes no value anyone observes, so the interleaving is no violation.
// It stays one when the increment's result is used, or when the worker's
// region loads the count first (a check-then-act, whose stale check the
// reordering would change).
func TestUnobservedUpdates(t *testing.T) {
	pats := builtin(t, "av", "asv")
	has := func(src string) bool {
		t.Helper()
		res, err := Run(parse(t, src), pats, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range res.Anomalies {
			if a.Pattern.ID() == "av/RWW" {
				return true
			}
		}
		return false
	}
	if res, err := Run(parse(t, purge), pats, Options{}); err != nil {
		t.Fatal(err)
	} else if len(res.Anomalies) > 0 {
		t.Errorf("unused increment falling between a check and an unused decrement: got %s, want no anomaly", res.Anomalies[0].Pattern.ID())
	}
	for what, src := range map[string]string{
		"remote result used": strings.Replace(purge, "@p.go:11 update=add-unused", "@p.go:11 update=add", 1),
		"unit result used":   strings.Replace(purge, "@p.go:4 update=add-unused", "@p.go:4 update=add", 1),
		"remote checks":      strings.Replace(purge, "T2 atomic-rmw idle @p.go:11", "T2 atomic-load idle @p.go:13\nT2 atomic-rmw idle @p.go:11", 1),
		"remote swaps":       strings.Replace(purge, "@p.go:11 update=add-unused", "@p.go:11", 1),
	} {
		if !has(src) {
			t.Errorf("%s: no av/RWW, want it", what)
		}
	}
}

// TestSplit: a violation across the unit's own unlock is marked with the
// unlock's site; one across the unlocks of the methods it calls is not.
func TestSplit(t *testing.T) {
	const do = `
T1 fork T2 @s.go:1
T1 region-begin Group.Do @s.go:2
T1 lock mu @s.go:3
T1 write m @s.go:4
T1 unlock mu @s.go:5
T1 lock mu @s.go:6
T1 write m @s.go:7
T1 unlock mu @s.go:8
T1 region-end Group.Do @s.go:9
T2 begin
T2 lock mu @s.go:20
T2 write m @s.go:21
T2 unlock mu @s.go:22
`
	res, err := Run(parse(t, do), builtin(t, "av"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Anomalies) == 0 {
		t.Fatal("no anomaly across the gap")
	}
	for _, a := range res.Anomalies {
		if a.Split != "s.go:5" {
			t.Errorf("%s %s: Split %q, want s.go:5", a.Pattern.ID(), numbers(a.Events), a.Split)
		}
	}
	// The same accesses in methods the unit calls: no split.
	nested := strings.NewReplacer(
		"T1 lock mu @s.go:3", "T1 region-begin Group.set @s.go:30\nT1 lock mu @s.go:3",
		"T1 unlock mu @s.go:5", "T1 unlock mu @s.go:5\nT1 region-end Group.set @s.go:31",
		"T1 lock mu @s.go:6", "T1 region-begin Group.set @s.go:30\nT1 lock mu @s.go:6",
		"T1 unlock mu @s.go:8", "T1 unlock mu @s.go:8\nT1 region-end Group.set @s.go:31",
	).Replace(do)
	res, err = Run(parse(t, nested), builtin(t, "av"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Anomalies) == 0 {
		t.Fatal("nested: no anomaly across the gap")
	}
	for _, a := range res.Anomalies {
		if a.Split != "" {
			t.Errorf("nested: %s %s: Split %q, want none", a.Pattern.ID(), numbers(a.Events), a.Split)
		}
	}
}

// TestRecheck: ants's revertWorker reads the pool's state holding no lock,
// takes the pool's lock and reads it again before inserting; Release's
// CAS falls between. The violation across the re-check is marked with the
// acquire's site (reported only with an effect); without the second read
// under the lock (a time-of-check-to-time-of-use bug) it is not.
func TestRecheck(t *testing.T) {
	const revert = `
T1 fork T2 @r.go:1
T1 region-begin Pool.revert @r.go:2
T1 atomic-load state @r.go:3
T2 begin
T2 atomic-rmw state @r.go:20
T1 lock mu @r.go:4
T1 atomic-load state @r.go:5
T1 write items @r.go:6
T1 unlock mu @r.go:7
T1 region-end Pool.revert @r.go:8
`
	pats := builtin(t, "av")
	res, err := Run(parse(t, revert), pats, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range res.Anomalies {
		if numbers(a.Events) == "<3,5,7>" {
			n++
			if a.Split != "r.go:4" || !a.Recheck {
				t.Errorf("%s %s: Split %q, recheck %v; want r.go:4, a recheck", a.Pattern.ID(), numbers(a.Events), a.Split, a.Recheck)
			}
		}
	}
	if n == 0 {
		t.Fatalf("no violation <3,5,7> across the re-check among %d anomalies", len(res.Anomalies))
	}
	// The check not repeated under the lock: the unit reads state, then
	// writes it under the lock.
	toctou := strings.Replace(revert, "T1 atomic-load state @r.go:5", "T1 atomic-rmw state @r.go:5", 1)
	res, err = Run(parse(t, toctou), pats, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Every access being atomic, it is asked for an effect on those
	// terms (Atomics), not as a re-check.
	n = 0
	for _, a := range res.Anomalies {
		n++
		if a.Recheck || a.Split != "" && !a.Atomics {
			t.Errorf("toctou: %s %s: Split %q, recheck %v, atomics %v; want no recheck, no split but Atomics", a.Pattern.ID(), numbers(a.Events), a.Split, a.Recheck, a.Atomics)
		}
	}
	if n == 0 {
		t.Fatal("toctou: no violation")
	}
}

// TestAllAtomic: an instance whose every access is a sync/atomic
// operation (pond's idle-worker count: a check under the pool's lock and
// a decrement, a worker's lock-free increment between) is marked Atomics
// at the unit's later event, to be reported only with an effect; the same
// shape with a plain write is not.
func TestAllAtomic(t *testing.T) {
	const purge = `
T1 fork T2 @p.go:1
T1 region-begin Pool.purge @p.go:2
T1 lock mu @p.go:3
T1 atomic-load idle @p.go:4
T2 begin
T2 atomic-rmw idle @p.go:20
T1 atomic-rmw idle @p.go:5
T1 unlock mu @p.go:6
T1 region-end Pool.purge @p.go:7
`
	pats := builtin(t, "av")
	for _, tc := range []struct {
		name, text string
		atomics    bool
	}{
		{"atomic", purge, true},
		{"plain", strings.Replace(purge, "T2 atomic-rmw idle @p.go:20", "T2 write idle @p.go:20", 1), false},
	} {
		res, err := Run(parse(t, tc.text), pats, Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, a := range res.Anomalies {
			if numbers(a.Events) != "<4,6,7>" {
				continue
			}
			n++
			if a.Atomics != tc.atomics || tc.atomics && a.Split != "p.go:5" {
				t.Errorf("%s: %s %s: Split %q, atomics %v; want atomics %v", tc.name, a.Pattern.ID(), numbers(a.Events), a.Split, a.Atomics, tc.atomics)
			}
		}
		if n == 0 {
			t.Errorf("%s: no violation <4,6,7> among %d anomalies", tc.name, len(res.Anomalies))
		}
	}
}

// TestPrefer: Options.Prefer gets the sites of a combination as the
// anomalies name them, and its anomalies come before the others'.
func TestPrefer(t *testing.T) {
	const src = `
T1 fork T2 @m.go:1
T1 write x @a.go:1
T1 write y @a.go:2
T2 begin
T2 write y @b.go:2
T2 write x @b.go:1
`
	pats := builtin(t, "race")
	plain, err := Run(parse(t, src), pats, Options{})
	if err != nil {
		t.Fatal(err)
	}
	on := func(a Anomaly, site string) bool { return slices.Contains(a.Sites, site) }
	if len(plain.Anomalies) != 2 || !on(plain.Anomalies[0], "a.go:1") {
		t.Fatalf("without Prefer: %d anomalies, first at %v; want 2, the race on x first", len(plain.Anomalies), plain.Anomalies[0].Sites)
	}
	var asked [][]string
	res, err := Run(parse(t, src), pats, Options{Prefer: func(sites []string) bool {
		asked = append(asked, append([]string(nil), sites...))
		return strings.Contains(strings.Join(sites, " "), "a.go:2")
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Anomalies) != 2 || !on(res.Anomalies[0], "a.go:2") {
		t.Fatalf("with Prefer: %d anomalies, first at %v; want 2, the race on y first", len(res.Anomalies), res.Anomalies[0].Sites)
	}
	for _, a := range res.Anomalies {
		if !slices.ContainsFunc(asked, func(s []string) bool { return slices.Equal(s, a.Sites) }) {
			t.Errorf("Prefer asked about %v, never about the sites of anomaly %v", asked, a.Sites)
		}
	}
}
