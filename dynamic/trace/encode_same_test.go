package trace

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand"
	"testing"
)

// encodeChecked is Encode as it was before its defined fast path (session
// 51): every event checked against the tables first, then its names
// looked up and defined. TestEncodeSameBytes holds Encode to it.
func (e *binaryEncoder) encodeChecked(ev Event, t *Tables) error {
	if e.err != nil {
		return e.err
	}
	if e.closed {
		return errClosed
	}
	if t == nil {
		return errNoTables
	}
	e.n++
	if err := t.checkEventN(ev, e.tableLen(t, TabObject)); err != nil {
		return fmt.Errorf("trace: event %d: %v", e.n, err)
	}
	g, okG := e.lookup(TabGoroutine, ev.G)
	obj, okO := int32(0), true
	switch objKinds[ev.Op] {
	case ObjObject:
		obj, okO = e.lookup(TabObject, ev.Obj)
	case ObjGoroutine:
		obj, okO = e.lookup(TabGoroutine, ev.Obj)
	}
	site, okS := int32(-1), true
	if ev.Site >= 0 {
		site, okS = e.lookup(TabSite, ev.Site)
	}
	if !okG || !okO || !okS {
		if err := e.define(&ev, t); err != nil {
			return fmt.Errorf("trace: event %d: %v", e.n, err)
		}
		g, _ = e.lookup(TabGoroutine, ev.G)
		switch objKinds[ev.Op] {
		case ObjObject:
			obj, _ = e.lookup(TabObject, ev.Obj)
		case ObjGoroutine:
			obj, _ = e.lookup(TabGoroutine, ev.Obj)
		}
		if ev.Site >= 0 {
			site, _ = e.lookup(TabSite, ev.Site)
		}
	}
	b := e.buf
	h := byte(ev.Op)
	if g != e.prevG {
		h |= bNewG
	}
	if ev.Arg != 0 {
		h |= bArg
	}
	if ev.Flags != 0 {
		h |= bFlags
	}
	b = append(b, h)
	if h&bNewG != 0 {
		b = appendUvarint(b, uint64(g))
		e.prevG = g
	}
	if h&bFlags != 0 {
		b = append(b, ev.Flags)
	}
	if objKinds[ev.Op] != ObjNone {
		b = appendUvarint(b, uint64(obj))
	}
	b = appendUvarint(b, uint64(site+1))
	if h&bArg != 0 {
		b = binary.AppendVarint(b, ev.Arg)
	}
	if ev.Flags&(FlagVal|FlagLen) != 0 {
		b = appendUvarint(b, ev.Val)
	}
	e.buf = b
	if len(b) > bufSize-2*maxEventLen {
		e.flush()
	}
	return e.err
}

// TestEncodeSameBytes: Encode, which skips the check of an event whose
// names are all defined, writes the bytes encodeChecked writes and fails
// with its errors, event by event, on random streams of valid and
// invalid events (every op code, indices out of range and negative,
// arguments and flags an op does not take, names the format cannot hold)
// over tables that grow as they go, in each naming mode the encoder has
// (tables, DistinctNames, LazyObjects as the recorder runtime uses it).
func TestEncodeSameBytes(t *testing.T) {
	flags := []uint8{0, 0, 0, FlagClosed, FlagBlocked, FlagVal, FlagLen, FlagAdd, FlagAdd | FlagUnused, 0x40, 0xff}
	args := []int64{0, 0, 0, 1, -1, 64, 1 << 40}
	for _, mode := range []string{"tables", "distinct", "lazy"} {
		for seed := int64(1); seed <= 20; seed++ {
			r := rand.New(rand.NewSource(seed))
			var got, want bytes.Buffer
			eg := NewBinaryEncoder(&got).(*binaryEncoder)
			ew := NewBinaryEncoder(&want).(*binaryEncoder)
			var tab Tables
			objs := namesOf{}
			lazy := &objs
			switch mode {
			case "distinct":
				eg.DistinctNames()
				ew.DistinctNames()
			case "lazy":
				eg.LazyObjects(lazyNames{lazy})
				ew.LazyObjects(lazyNames{lazy})
			}
			name := func(prefix string, i int) string {
				switch r.Intn(40) {
				case 0:
					return prefix + " bad" // whitespace: not a name
				case 1:
					if mode == "tables" {
						return prefix + "0" // a name twice in a table
					}
				}
				return fmt.Sprintf("%s%d", prefix, i)
			}
			grow := func() {
				switch r.Intn(8) {
				case 0:
					tab.Goroutines = append(tab.Goroutines, name("g", len(tab.Goroutines)))
				case 1:
					if mode == "lazy" {
						*lazy = append(*lazy, name("o#", len(*lazy)+1))
					} else {
						tab.Objects = append(tab.Objects, name("o", len(tab.Objects)))
					}
				case 2:
					tab.Sites = append(tab.Sites, fmt.Sprintf("f.go:%d", len(tab.Sites)+1))
				}
			}
			index := func(n int) int32 {
				if r.Intn(20) == 0 {
					return int32(r.Intn(5) - 3) // -3..1: negative, NoIndex, small
				}
				return int32(r.Intn(n + 2)) // sometimes past the end
			}
			ok := 0
			for i := 0; i < 3000; i++ {
				grow()
				nObj := len(tab.Objects)
				if mode == "lazy" {
					nObj = len(*lazy)
				}
				if len(tab.Goroutines) == 0 || nObj == 0 {
					continue
				}
				var ev Event
				if r.Intn(4) == 0 {
					// Anything: most of these are invalid.
					ev = Event{
						G:     index(len(tab.Goroutines)),
						Op:    Op(r.Intn(34)),
						Flags: flags[r.Intn(len(flags))],
						Obj:   index(nObj),
						Site:  index(len(tab.Sites)),
						Arg:   args[r.Intn(len(args))],
					}
					switch ev.Op.Object() {
					case ObjNone:
						if r.Intn(10) != 0 {
							ev.Obj = NoIndex
						}
					case ObjGoroutine:
						ev.Obj = index(len(tab.Goroutines))
					}
					if ev.Flags&(FlagVal|FlagLen) != 0 || r.Intn(30) == 0 {
						ev.Val = uint64(r.Intn(300))
					}
				} else {
					// A recorder's event: a valid op on names in range,
					// most of them used before.
					near := func(n int) int32 { return int32(max(0, n-1-r.Intn(min(n, 8)))) }
					ev = Event{G: near(len(tab.Goroutines)), Op: Op(1 + r.Intn(int(numOps)-1)), Obj: near(nObj), Site: NoIndex}
					if len(tab.Sites) > 0 && r.Intn(5) != 0 {
						ev.Site = near(len(tab.Sites))
					}
					switch ev.Op.Object() {
					case ObjNone:
						ev.Obj = NoIndex
					case ObjGoroutine:
						ev.Obj = near(len(tab.Goroutines))
					}
					switch {
					case ev.Op.HasCap():
						ev.Arg = int64(r.Intn(3))
					case ev.Op.HasDelta():
						ev.Arg = int64(r.Intn(3) - 1)
					case ev.Op == Write && r.Intn(3) == 0:
						ev.Flags, ev.Val = FlagVal, uint64(r.Intn(1000))
					}
				}
				errG, errW := eg.Encode(ev, &tab), ew.encodeChecked(ev, &tab)
				if fmt.Sprint(errG) != fmt.Sprint(errW) {
					t.Fatalf("%s seed %d event %d %+v: Encode: %v; checked: %v", mode, seed, i, ev, errG, errW)
				}
				if errG == nil {
					ok++
				}
			}
			if ok < 1500 {
				t.Errorf("%s seed %d: %d of 3000 events written: the stream hardly tests the encoding", mode, seed, ok)
			}
			eg.SetTruncated("cut")
			ew.SetTruncated("cut")
			if err := eg.Close(); err != nil {
				t.Fatal(err)
			}
			if err := ew.Close(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("%s seed %d: Encode wrote %d bytes, the checking encoder %d, not the same", mode, seed, got.Len(), want.Len())
			}
		}
	}
}

// lazyNames is an ObjectNames over a slice that grows (namesOf is over a
// fixed one).
type lazyNames struct{ n *namesOf }

func (l lazyNames) NumObjects() int { return len(*l.n) }
func (l lazyNames) AppendObjectName(dst []byte, i int32) []byte {
	return append(dst, (*l.n)[i]...)
}
