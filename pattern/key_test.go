package pattern

import "testing"

func TestKeyRaceSymmetry(t *testing.T) {
	race, _ := Builtin("race")
	rw, wr, ww := race[0], race[1], race[2]
	const a, b = "f.go:12:3", "f.go:20:5"

	if got, want := Key(rw, []string{a, b}), "r@f.go:12:3|w@f.go:20:5"; got != want {
		t.Errorf("Key(RW) = %q, want %q", got, want)
	}
	// A read at a racing with a write at b is one report, whichever comes first.
	if Key(rw, []string{a, b}) != Key(wr, []string{b, a}) {
		t.Errorf("Key(RW, a, b) = %q != Key(WR, b, a) = %q", Key(rw, []string{a, b}), Key(wr, []string{b, a}))
	}
	if Key(ww, []string{a, b}) != Key(ww, []string{b, a}) {
		t.Error("Key(WW) is not symmetric")
	}
	// Reads and writes at swapped sites are different reports.
	if Key(rw, []string{a, b}) == Key(rw, []string{b, a}) {
		t.Error("Key(RW, a, b) == Key(RW, b, a)")
	}
	if Key(rw, []string{a, a}) != "r@f.go:12:3|w@f.go:12:3" {
		t.Errorf("Key(RW, a, a) = %q", Key(rw, []string{a, a}))
	}
}

func TestKeyOrdered(t *testing.T) {
	av, _ := Builtin("av")
	asv, _ := Builtin("asv")
	rwr := av[0]
	sites := []string{"a:1", "b:2", "c:3"}
	if got, want := Key(rwr, sites), "r@a:1|w@b:2|r@c:3"; got != want {
		t.Errorf("Key(RWR) = %q, want %q", got, want)
	}
	if Key(rwr, sites) == Key(rwr, []string{"c:3", "b:2", "a:1"}) {
		t.Error("Key of a non-adjacent pattern ignores the order")
	}
	// asv-2 has the same shape as av/RWR: the same report.
	if Key(rwr, sites) != Key(asv[1], sites) {
		t.Errorf("Key(av/RWR) = %q != Key(asv-2) = %q", Key(rwr, sites), Key(asv[1], sites))
	}
	// A non-adjacent two-event pattern keeps the order.
	p := MustParse("k/n T=a-b SV=x-x AR=p-q AT=w-w")[0]
	if Key(p, []string{"a:1", "b:2"}) == Key(p, []string{"b:2", "a:1"}) {
		t.Error("Key of a non-adjacent two-event pattern ignores the order")
	}
}

func TestKeyPanicsOnLength(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Key with the wrong number of sites did not panic")
		}
	}()
	race, _ := Builtin("race")
	Key(race[0], []string{"a:1"})
}

// TestSameShape: av/RWR and asv/asv-2 are one shape; av/RWR and av/RWW,
// or av/RRW with and without its acting option, are not.
func TestSameShape(t *testing.T) {
	av, _ := Builtin("av")
	asv, _ := Builtin("asv")
	byID := map[string]*Pattern{}
	for _, p := range append(av, asv...) {
		byID[p.ID()] = p
	}
	stale := MustParse("av/RRW-stale atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-r-w")[0]
	for _, c := range []struct {
		a, b *Pattern
		want bool
	}{
		{byID["av/RWR"], byID["asv/asv-2"], true},
		{byID["av/RWW"], byID["asv/asv-1"], true},
		{byID["av/WWW"], byID["asv/asv-5"], true},
		{byID["av/RWR"], byID["av/RWW"], false},
		{byID["av/RRW"], stale, false},
		{byID["asv/asv-9"], byID["asv/asv-10"], false},
	} {
		if got := c.a.SameShape(c.b); got != c.want {
			t.Errorf("%s.SameShape(%s) = %v, want %v", c.a.ID(), c.b.ID(), got, c.want)
		}
	}
}
