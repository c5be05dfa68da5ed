package depend

import "testing"

// TestJudgeInitRedone: lrita/cmap's Store (dep.go's Lazy) publishes a
// lazily made node (cmap.go:140) or makes a bucket's map (cmap.go:172),
// then inserts its key; another Store between finds the node (or the
// map) and takes the bucket's length before the insert.
func TestJudgeInitRedone(t *testing.T) {
	x, at := index(t)
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	method := func(recv, name string) string { return at("func ("+recv+") "+name+"(", name) }
	frame := func(id int32, recv, name string) Frame { return Frame{ID: id, Site: method(recv, name)} }
	lf := func(id int32, name string) Frame { return frame(id, "l *Lazy", name) }
	lenAt, insertAt := call("l0 := len(b.m) // lazy len", "len"), at("b.m[k] = v     // lazy insert", "[")
	// node: the unit's Store (through getter, at the line marked pre+"
	// publish") publishes the node; the reader's load at the line marked
	// read (in reader, through readerGetter) reads it, then the
	// reader's put takes the bucket's length; then the unit inserts.
	node := func(store, getter, pre, reader, readerGetter, read string) []Event {
		var rf []Frame
		if readerGetter != "" {
			rf = []Frame{lf(9, reader), lf(10, readerGetter)}
		} else {
			rf = []Frame{lf(9, reader)}
		}
		a := Event{Thread: 1, Unit: 1, Write: true, Site: call("// "+pre+" publish", "StorePointer"), Frames: []Frame{lf(1, store), lf(2, getter)}, Step: 10}
		r1 := Event{Thread: 2, Unit: 2, Read: true, Site: call(read, "LoadPointer"), Frames: rf, Step: 20, Prior: []Touch{{Step: 10, Site: a.Site, G: "g1"}}}
		r2 := Event{Thread: 2, Unit: 2, Read: true, Var: 1, Site: lenAt, Frames: []Frame{lf(9, reader), lf(11, "put")}, Step: 30}
		b := Event{Thread: 1, Unit: 1, Write: true, Var: 1, Site: insertAt, Frames: []Frame{lf(1, store), lf(3, "put")}, Step: 40}
		return []Event{a, r1, r2, b}
	}
	nodeFrom := func(evs []Event, from int) []Event {
		evs[1].Prior = []Touch{{Step: from, Site: evs[0].Site, G: "g3"}}
		return evs
	}
	// bucket: the unit's initBucket makes the map at the line marked
	// made, the reader's put loads b.m and takes its length, then the
	// unit inserts.
	bucket := func(made string) []Event {
		nf := func(id int32) Frame { return frame(id, "n *lazyNode", "initBucket") }
		return []Event{
			{Thread: 1, Unit: 1, Write: true, Site: at("b.m = make(map[string]int) // "+made, "m ="), Frames: []Frame{lf(1, "Store"), lf(2, "put"), lf(3, "bucket"), nf(4)}, Step: 10},
			{Thread: 2, Unit: 2, Read: true, Site: at("l0 := len(b.m) // lazy len", "m)"), Frames: []Frame{lf(9, "Store"), lf(10, "put")}, Step: 20},
			{Thread: 2, Unit: 2, Read: true, Var: 1, Site: lenAt, Frames: []Frame{lf(9, "Store"), lf(10, "put")}, Step: 30},
			{Thread: 1, Unit: 1, Write: true, Var: 1, Site: insertAt, Frames: []Frame{lf(1, "Store"), lf(2, "put")}, Step: 40},
		}
	}
	for _, c := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"cmap.go:140: the node found on the fast path, then the length before the unit's insert", node("Store", "getNode", "lazy", "Store", "getNode", "// lazy fast"), false},
		{"the node found by the re-check under the lock, then the length before the unit's insert", node("Store", "getNode", "lazy", "Store", "getNode", "// lazy recheck"), false},
		{"the node found on the fast path, written again by a third goroutine since", nodeFrom(node("Store", "getNode", "lazy", "Store", "getNode", "// lazy fast"), 15), true},
		{"a node made with no re-check under the lock (a lost initialization)", node("StoreBare", "getNodeBare", "bare", "StoreBare", "getNodeBare", "// bare fast"), true},
		{"a node published before its buckets are set (half built)", node("StoreHalf", "getNodeHalf", "half", "StoreHalf", "getNodeHalf", "// half fast"), true},
		{"a node made from the caller's argument", node("StoreSized", "getNodeSized", "sized", "StoreSized", "getNodeSized", "// sized fast"), true},
		{"a reader that tests the node for nil outside the initializer", func() []Event {
			evs := node("Store", "getNode", "lazy", "Len", "", "// lazy peek")
			evs[2].Site, evs[2].Frames = call("return len(b.m) // peek len", "len"), []Frame{lf(9, "Len")}
			return evs
		}(), true},
		{"cmap.go:172: the bucket's map, made under its flag, then its length before the unit's insert", bucket("bucket made"), false},
		{"a bucket's map made after the flag is set and the lock released", []Event{
			{Thread: 1, Unit: 1, Write: true, Site: at("b.m = make(map[string]int) // bucket late", "m ="), Frames: []Frame{frame(1, "b *LateBucket", "Put"), frame(2, "b *LateBucket", "initLate")}, Step: 10},
			{Thread: 2, Unit: 2, Read: true, Site: at("l0 := len(b.m) // late len", "m)"), Frames: []Frame{frame(9, "b *LateBucket", "Put")}, Step: 20},
			{Thread: 2, Unit: 2, Read: true, Var: 1, Site: call("l0 := len(b.m) // late len", "len"), Frames: []Frame{frame(9, "b *LateBucket", "Put")}, Step: 30},
			{Thread: 1, Unit: 1, Write: true, Var: 1, Site: at("b.m[k] = v     // late insert", "["), Frames: []Frame{frame(1, "b *LateBucket", "Put")}, Step: 40},
		}, true},
	} {
		v := x.Judge(c.evs)
		if v.Holds != c.want {
			t.Errorf("%s: Judge = %v, %q: %s; want %v", c.name, v.Holds, v.Kind, v.Why, c.want)
		}
	}
}
