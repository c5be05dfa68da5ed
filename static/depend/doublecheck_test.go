package depend

import "testing"

// TestJudgeDoubleChecked: a lookup under a read lock that missed, then,
// under the write lock, the lookup again before the insert (datadog-go's
// gaugeWithContextBuffer), with another goroutine's make and insert
// between, acts on the re-check, and so does one whose first lookup holds
// no lock: whichever of the unit's later accesses
// the pattern ends with, the miss only chose the path that looks again.
// The same without the re-check (the insert lost), a nil test that
// decides the make but not the insert, and a balance tested under one
// lock section and decremented under another (a lost check: the
// decrement reads it again deciding nothing) stay judged.
func TestJudgeDoubleChecked(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, recv, name string) Frame {
		return Frame{ID: id, Site: at("func ("+recv+") "+name+"(", name)}
	}
	gauge := func(id int32, method string) []Frame {
		return []Frame{fr(id, "s *GaugeShard", "Gauge"), fr(id+1, "s *GaugeShard", method)}
	}
	purse := func(id int32) []Frame { return []Frame{fr(id, "p *Purse", "Take"), fr(id+1, "p *Purse", "take")} }
	type site struct {
		s string
		v int
		w bool
	}
	fld := func(tag string, w bool) site { return site{at(tag, "gauges"), 0, w} }
	idx := func(tag string, w bool) site { return site{at(tag, "["), 1, w} }
	ev := func(u int, s site, frs []Frame) Event {
		return Event{Thread: u, Unit: u, Var: s.v, Read: !s.w, Write: s.w, Site: s.s, Frames: frs}
	}
	u1, u2 := gauge(1, "sample"), gauge(8, "sample")
	l1, l2 := gauge(1, "sampleLost"), gauge(8, "sampleLost")
	b1, b2 := gauge(1, "sampleBare"), gauge(8, "sampleBare")
	p1, p2 := purse(1), purse(8)
	capped := func(id int32) []Frame {
		return []Frame{fr(id, "c *Capped", "Add"), fr(id+1, "c *Capped", "add")}
	}
	c1 := capped(1)
	capf := func(tag, col string, v int, w bool) site { return site{at("// capped "+tag, col), v, w} }
	bal := func(tag string, w bool) site { return site{at("// purse "+tag, "bal"), 0, w} }
	for _, c := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"lookup (map), make and insert, re-check (field)", []Event{
			ev(1, idx("// gauge lookup", false), u1), ev(2, fld("// gauge make", true), u2), ev(2, idx("// gauge insert", true), u2), ev(1, fld("// gauge recheck", false), u1),
		}, false},
		{"lookup (field), make and insert, re-check (map)", []Event{
			ev(1, fld("// gauge lookup", false), u1), ev(2, fld("// gauge make", true), u2), ev(2, idx("// gauge insert", true), u2), ev(1, idx("// gauge recheck", false), u1),
		}, false},
		{"lookup, insert, nil test after the re-check", []Event{
			ev(1, idx("// gauge lookup", false), u1), ev(2, idx("// gauge insert", true), u2), ev(1, fld("// gauge nil check", false), u1),
		}, false},
		{"lookup, insert, insert after the re-check", []Event{
			ev(1, idx("// gauge lookup", false), u1), ev(2, idx("// gauge insert", true), u2), ev(1, idx("// gauge insert", true), u1),
		}, false},
		{"unlocked lookup, insert, re-check", []Event{
			ev(1, idx("// bare lookup", false), b1), ev(2, idx("// bare insert", true), b2), ev(1, idx("// bare recheck", false), b1),
		}, false},
		{"unlocked lookup, insert, insert after the re-check", []Event{
			ev(1, idx("// bare lookup", false), b1), ev(2, idx("// bare insert", true), b2), ev(1, idx("// bare insert", true), b1),
		}, false},
		{"no re-check: lookup, insert, insert", []Event{
			ev(1, idx("// lost lookup", false), l1), ev(2, idx("// lost insert", true), l2), ev(1, idx("// lost insert", true), l1),
		}, true},
		{"no re-check: lookup, insert, nil test", []Event{
			ev(1, idx("// lost lookup", false), l1), ev(2, idx("// lost insert", true), l2), ev(1, fld("// lost nil check", false), l1),
		}, true},
		{"lost bound: size checked, another's insert, the insert after the key's re-check", []Event{
			{Thread: 1, Unit: 1, Read: true, Site: capf("bound", "m)", 0, false).s, Frames: c1}, {Thread: 2, Unit: 2, Write: true, Site: capf("insert", "[", 0, true).s, Frames: capped(8)}, {Thread: 1, Unit: 1, Write: true, Site: capf("insert", "[", 0, true).s, Frames: c1},
		}, true},
		{"lost check: test, another's decrement, the decrement", []Event{
			ev(1, bal("check", false), p1), {Thread: 2, Unit: 2, Read: true, Write: true, Site: bal("take", true).s, Frames: p2}, {Thread: 1, Unit: 1, Read: true, Write: true, Site: bal("take", true).s, Frames: p1},
		}, true},
	} {
		v := x.Judge(c.evs)
		if v.Holds != c.want {
			t.Errorf("%s: Judge = %v, %q: %s; want %v", c.name, v.Holds, v.Kind, v.Why, c.want)
		}
	}
	// The rule itself: the decrement's read (its load, or the whole
	// read-modify-write) is no re-check of the test, nor is the nil test
	// of the version without one.
	for _, c := range [][2]Event{
		{ev(1, bal("check", false), p1), ev(1, bal("take", false), p1)},
		{ev(1, bal("check", false), p1), {Thread: 1, Unit: 1, Read: true, Write: true, Site: bal("take", true).s, Frames: p1}},
		{ev(1, idx("// lost lookup", false), l1), ev(1, fld("// lost nil check", false), l1)},
		{ev(1, idx("// lost lookup", false), l1), ev(1, idx("// lost insert", true), l1)},
		{ev(1, capf("bound", "m)", 0, false), c1), ev(1, capf("recheck", "m[", 0, false), c1)},
		{ev(1, capf("bound", "m)", 0, false), c1), ev(1, capf("insert", "[", 1, true), c1)},
	} {
		if x.doubleChecked(c[0], c[1]) {
			t.Errorf("doubleChecked(%s, %s) = true, want false", c[0].Site, c[1].Site)
		}
	}
}
