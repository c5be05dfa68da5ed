package depend

import "testing"

// TestJudgeCreatedSeen: testdata's Windows, go-metrics' InmemSink. Add's
// get-or-create appends a new window's bucket and then counts into it;
// Snapshot, between, copies the buckets. The snapshot is excused only
// when the replay shows Snapshot's own current(), after the append and
// with no other write of the buckets, read its length, test and element
// in the found branch (Looks), and the counts it copied were written by
// no one before (Untouched): Snapshot run first would have made that
// very bucket, empty. Each condition missing keeps it judged: current()
// ran only before the append (an older window), Snapshot's current()
// appended a bucket of its own (Prior), the counts were written before,
// a get-or-create that makes another key's bucket than its test wants
// (currentLate) or appends after a test in another critical section
// (currentLoose), or the reads out of order.
func TestJudgeCreatedSeen(t *testing.T) {
	x, at := index(t)
	method := func(recv, name string) string { return at("func ("+recv+") "+name+"(", name) }
	frame := func(id int32, name string) Frame { return Frame{ID: id, Site: method("w *Windows", name)} }
	look := func(step int, line, col string) Touch { return Touch{Step: step, Site: at(line, col), G: "g2"} }
	fLen, fTest, fElem := look(5, "// windows found len", "buckets"), look(6, "// windows found test", "buckets"), look(7, "// windows found elem", "buckets")
	lLen, lTest, lElem := look(5, "// late found len", "buckets"), look(6, "// late found test", "buckets"), look(7, "// late found elem", "buckets")
	for _, l := range []Touch{fLen, fTest, fElem, lLen, lTest, lElem} {
		if len(x.instrs[l.Site]) == 0 {
			t.Fatalf("no instruction at %s", l.Site)
		}
	}
	build := func(late bool, looks []Touch, prior []Touch, untouched bool) []Event {
		app, add, writer := at("// windows append", "buckets"), at("// windows add", "Counts"), "Add"
		if late {
			app, add, writer = at("// late append", "buckets"), at("// late add", "Counts"), "AddLate"
		}
		a := Event{Thread: 1, Unit: 1, Var: 0, Write: true, Site: app, Frames: []Frame{frame(1, writer)}, Step: 2}
		b := Event{Thread: 1, Unit: 1, Var: 1, Write: true, Site: add, Frames: []Frame{frame(1, writer)}, Step: 20}
		r1 := Event{Thread: 2, Unit: 2, Var: 0, Read: true, Site: at("// windows snap range", "buckets"), Frames: []Frame{frame(9, "Snapshot")}, Step: 10}
		r2 := Event{Thread: 2, Unit: 2, Var: 1, Read: true, Site: at("// windows snap counts", "Counts"), Frames: []Frame{frame(9, "Snapshot")}, Step: 12}
		r1.Prior = append([]Touch{{Step: 2, Site: app, G: "g1"}}, prior...)
		r1.Looks = looks
		r2.Prior, r2.Untouched = []Touch{}, untouched
		return []Event{a, r1, r2, b}
	}
	found := []Touch{fLen, fTest, fElem}
	lateFound := []Touch{lLen, lTest, lElem}
	early := []Touch{{Step: 1, Site: fLen.Site}, {Step: 1, Site: fTest.Site}, {Step: 1, Site: fElem.Site}}
	own := []Touch{{Step: 8, Site: at("// windows append", "buckets"), G: "g2"}}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"no replay facts", build(false, nil, nil, false), true},
		{"Snapshot's current() found the new bucket", build(false, found, nil, true), false},
		{"Snapshot's current() ran before the append", build(false, early, nil, true), true},
		{"Snapshot's current() read only the length after it", build(false, found[:1], nil, true), true},
		{"the found branch's reads out of order", build(false, []Touch{fElem, fTest, fLen}, nil, true), true},
		{"Snapshot's current() appended its own bucket", build(false, found, own, true), true},
		{"the counts were written before", build(false, found, nil, false), true},
		{"currentLate makes another window's bucket", build(true, lateFound, nil, true), true},
	} {
		v := x.Judge(tc.evs)
		if v.Holds != tc.want {
			t.Errorf("%s: Judge = %v (%s), want %v", tc.name, v.Holds, v, tc.want)
		}
	}
	if x.getOrCreate(build(false, nil, nil, false)[0]) == nil {
		t.Errorf("getOrCreate(current's append) = nil")
	}
	if x.getOrCreate(build(true, nil, nil, false)[0]) != nil {
		t.Errorf("getOrCreate(currentLate's append) != nil: its create makes start+width, its test wants start")
	}
	loose := Event{Thread: 1, Unit: 1, Write: true, Site: at("// loose append", "buckets")}
	if x.getOrCreate(loose) != nil {
		t.Errorf("getOrCreate(currentLoose's append) != nil: its test and append are in two critical sections")
	}
}
