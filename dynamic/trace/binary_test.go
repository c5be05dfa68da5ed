package trace

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// bin builds binary trace bytes: the header, then the given pieces (bytes,
// strings, or ints for single bytes).
func bin(pieces ...any) []byte {
	b := []byte(BinaryMagic + string(rune(BinaryVersion)))
	for _, p := range pieces {
		switch p := p.(type) {
		case int:
			b = append(b, byte(p))
		case byte:
			b = append(b, p)
		case string:
			b = append(b, p...)
		case []byte:
			b = append(b, p...)
		default:
			panic(p)
		}
	}
	return b
}

// def returns a definition record.
func def(tag byte, name string) []byte {
	b := []byte{tag}
	b = binary.AppendUvarint(b, uint64(len(name)))
	return append(b, name...)
}

func TestBinaryLayout(t *testing.T) {
	tr := &Trace{
		Tables: Tables{Goroutines: []string{"main", "g1"}, Objects: []string{"ch"}, Sites: []string{"m.go:1"}},
		Events: []Event{
			{G: 0, Op: Fork, Obj: 1, Site: 0},
			{G: 1, Op: Begin, Obj: -1, Site: -1},
			{G: 1, Op: Send, Obj: 0, Site: 0, Arg: 1},
			{G: 0, Op: Recv, Obj: 0, Site: -1, Arg: 1, Flags: FlagClosed},
			{G: 0, Op: WGAdd, Obj: 0, Site: -1, Arg: -1},
			{G: 0, Op: Sleep, Obj: -1, Site: 0},
			{G: 0, Op: Write, Obj: 0, Site: 0, Arg: 3, Flags: FlagVal, Val: 300},
			{G: 0, Op: Write, Obj: 0, Site: 0, Flags: FlagLen, Val: 5},
		},
		Truncated: "boom",
	}
	want := bin(
		def(tagDefG, "main"), def(tagDefG, "g1"), def(tagDefSite, "m.go:1"),
		int(Fork)|bNewG, 0, 1, 1, // fork: G 0, obj 1, site 0+1
		int(Begin)|bNewG, 1, 0, // begin: G 1, no obj, no site
		def(tagDefObj, "ch"),
		int(Send)|bArg, 0, 1, 2, // send: same G, obj 0, site 1, arg zigzag(1)
		int(Recv)|bNewG|bArg|bFlags, 0, FlagClosed, 0, 0, 2,
		int(WGAdd)|bArg, 0, 0, 1, // delta zigzag(-1) = 1
		int(Sleep), 1, // sleep: no obj, site 0+1
		int(Write)|bArg|bFlags, FlagVal, 0, 1, 6, 0xac, 0x02, // key zigzag(3) = 6, val uvarint(300)
		int(Write)|bFlags, FlagLen, 0, 1, 5, // no key, len uvarint(5)
		tagTrunc, 4, "boom",
		tagEnd,
	)
	got := binaryOf(t, tr)
	if !bytes.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// Version 1 (no sleep op), 2 (no FlagVal) and 3 (no FlagLen) are
	// read as well; a value's identity needs version 3, a slice's length
	// version 4.
	noLen := bytes.Replace(want, []byte{byte(Write) | bFlags, FlagLen, 0, 1, 5}, []byte{byte(Write), 0, 1}, 1)
	old := bytes.Replace(noLen, []byte{byte(Write) | bArg | bFlags, FlagVal, 0, 1, 6, 0xac, 0x02}, []byte{byte(Write) | bArg, 0, 1, 6}, 1)
	for _, v := range []byte{1, 2, 3} {
		vb, flag := append([]byte(nil), old...), "0x40"
		if v == 3 {
			vb, flag = append([]byte(nil), noLen...), "0x80"
		}
		vb[len(BinaryMagic)] = v
		if back, err := readBinary(vb, false); err != nil || len(back.Events) != len(tr.Events) || back.Events[len(back.Events)-1].Flags != 0 {
			t.Errorf("version %d: %v", v, err)
		}
		vb = append([]byte(nil), want...)
		vb[len(BinaryMagic)] = v
		if _, err := readBinary(vb, false); err == nil || !strings.Contains(err.Error(), "write: invalid flags "+flag) {
			t.Errorf("version %d with a value: %v, want invalid flags %s", v, err, flag)
		}
	}
	back, err := readBinary(got, false)
	if err != nil || !exactEqual(back, canonical(tr)) {
		t.Errorf("read back: %v %+v", err, back)
	}
}

func TestBinaryErrors(t *testing.T) {
	g := def(tagDefG, "g")
	o := def(tagDefObj, "o")
	for _, c := range []struct {
		name string
		in   []byte
		want string // "t.bin: byte N: message..."
	}{
		{"empty", nil, "t.bin: byte 0: unexpected end of data inside the header"},
		{"short magic", []byte("PCN"), "t.bin: byte 3: unexpected end of data inside the header"},
		{"no version", []byte("PCNTRC"), "t.bin: byte 6: unexpected end of data inside the header"},
		{"bad magic", []byte("PCNTRX\x01"), "t.bin: byte 0: not a pecanvet binary trace (bad magic)"},
		{"text", []byte("g read x\n"), "t.bin: byte 0: not a pecanvet binary trace"},
		{"version 5", []byte("PCNTRC\x05\xe0"), "t.bin: byte 6: unsupported trace version 5; this pecanvet reads versions 1 to 4"},
		{"version 0", []byte("PCNTRC\x00"), "t.bin: byte 6: unsupported trace version 0; this pecanvet reads versions 1 to 4"},
		{"len on read", bin(g, o, int(Read)|bNewG|bFlags, 0, int(FlagLen), 0, 0, 5, tagEnd), "t.bin: byte 15: read: invalid flags 0x80"},
		{"len and val", bin(g, o, int(Write)|bNewG|bFlags, 0, int(FlagLen|FlagVal), 0, 0, 5, tagEnd), "t.bin: byte 15: write: invalid flags 0xc0"},
		{"val on read", bin(g, o, int(Read)|bNewG|bFlags, 0, int(FlagVal), 0, 0, 5, tagEnd), "t.bin: byte 15: read: invalid flags 0x40"},
		{"val cut", bin(g, o, int(Write)|bNewG|bFlags|bArg, 0, int(FlagVal), 0, 0, 2, 0x80), "t.bin: byte 20: unexpected end of data inside a record (started at byte 13)"},
		{"no end marker", bin(), "t.bin: byte 7: no end marker"},
		{"no end marker after events", bin(g, int(Begin)|bNewG, 0, 0), "t.bin: byte 13: no end marker"},
		{"cut in event", bin(g, int(Begin)|bNewG, 0), "t.bin: byte 12: unexpected end of data inside a record (started at byte 10)"},
		{"cut in def", bin(g, tagDefObj, 5, "ab"), "t.bin: byte 14: unexpected end of data inside a record (started at byte 10)"},
		{"cut in def length", bin(tagDefObj, 0x80), "t.bin: byte 9: unexpected end of data inside a record (started at byte 7)"},
		{"cut in flags", bin(g, o, int(Recv)|bNewG|bFlags, 0), "t.bin: byte 15: unexpected end of data inside a record (started at byte 13)"},
		{"data after end", bin(tagEnd, 0), "t.bin: byte 8: data after the end marker"},
		{"reserved tag 0", bin(0), "t.bin: byte 7: invalid record header byte 0x00"},
		{"reserved tag a0", bin(0xa0), "t.bin: byte 7: invalid record header byte 0xa0"},
		{"reserved op", bin(g, 27|bNewG, 0, 0), "t.bin: byte 10: invalid op code 27"},
		{"reserved op 31", bin(g, 31, 0, 0), "t.bin: byte 10: invalid op code 31"},
		{"first event without G", bin(g, int(Begin), 0, tagEnd), "t.bin: byte 10: the first event does not name its goroutine"},
		{"undefined goroutine", bin(g, int(Begin)|bNewG, 1, 0, tagEnd), "t.bin: byte 11: event refers to undefined goroutine 1 (1 defined)"},
		{"undefined object", bin(g, int(Read)|bNewG, 0, 0, 0, tagEnd), "t.bin: byte 12: read refers to undefined object 0 (0 defined)"},
		{"undefined child", bin(g, int(Fork)|bNewG, 0, 1, 0, tagEnd), "t.bin: byte 12: fork refers to undefined goroutine 1 (1 defined)"},
		{"undefined site", bin(g, int(Begin)|bNewG, 0, 1, tagEnd), "t.bin: byte 12: event refers to undefined site 0 (0 defined)"},
		{"huge index", bin(g, int(Begin)|bNewG, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0, tagEnd), "t.bin: byte 11: event refers to undefined goroutine 9223372036854775807"},
		{"varint overflow", bin(g, int(Begin)|bNewG, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, tagEnd), "t.bin: byte 11: varint overflows 64 bits"},
		{"flags on read", bin(g, o, int(Read)|bNewG|bFlags, 0, 1, 0, 0, tagEnd), "t.bin: byte 15: read: invalid flags 0x1"},
		{"unknown flag", bin(g, o, int(Recv)|bNewG|bFlags, 0, 2, 0, 0, tagEnd), "t.bin: byte 15: recv: invalid flags 0x2"},
		{"two update kinds", bin(g, o, int(AtomicRMW)|bNewG|bFlags, 0, int(FlagAdd|FlagOr), 0, 0, tagEnd), "t.bin: byte 15: atomic-rmw: invalid flags 0xa"},
		{"arg on atomic-load", bin(g, o, int(AtomicLoad)|bNewG|bArg, 0, 0, 0, 2, tagEnd), "t.bin: byte 13: atomic-load takes no argument"},
		{"negative cap", bin(g, o, int(Send)|bNewG|bArg, 0, 0, 0, 1, tagEnd), "t.bin: byte 17: send: negative capacity -1"},
		{"duplicate goroutine", bin(g, g), "t.bin: byte 10: goroutine \"g\" defined twice (already goroutine 0)"},
		{"empty name", bin(tagDefObj, 0), "t.bin: byte 9: bad object name \"\": empty name"},
		{"bad name", bin(def(tagDefObj, "a b")), "t.bin: byte 10: bad object name \"a b\": name may not contain whitespace"},
		{"no such instance", bin(def(tagDefObj, "b#0")), "t.bin: byte 10: bad object name \"b#0\": instance #0 does not exist"},
		{"bad goroutine", bin(def(tagDefG, "#g")), "t.bin: byte 9: bad goroutine name \"#g\": name may not start with '#'"},
		{"bad site", bin(def(tagDefSite, "a.go")), "t.bin: byte 9: bad site name \"a.go\": site \"a.go\" has no line number"},
		{"bad site line", bin(def(tagDefSite, "a.go:0")), "t.bin: byte 14: bad site name \"a.go:0\": site \"a.go:0\": 0 is not positive"},
		{"empty reason", bin(tagTrunc, 0, tagEnd), "t.bin: byte 7: empty truncation reason"},
		{"huge string", bin(tagDefObj, 0x80, 0x80, 0x80, 0x01, "x"), "t.bin: byte 8: string length 2097152 too large (at most 1048576)"},
		{"huge string cut", bin(tagDefObj, 0x80, 0x80, 0x40, "x"), "t.bin: byte 12: unexpected end of data inside a record (started at byte 7)"},
		{"huge length varint", bin(tagTrunc, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), "t.bin: byte 8: string length 18446744073709551615 too large"},
	} {
		_, err := readBinary(c.in, false)
		if err == nil {
			t.Errorf("%s: no error, want %s", c.name, c.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\ngot  %v\nwant %s...", c.name, err, c.want)
		}
		var de *DecodeError
		if !errors.As(err, &de) || de.Line != 0 {
			t.Errorf("%s: %#v is not a binary DecodeError", c.name, err)
		}
	}
}

// TestBinaryCut cuts an encoded trace at every byte offset: strict
// decoding fails naming a byte offset, lenient decoding returns a prefix of
// the events.
func TestBinaryCut(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for i := range 20 {
		tr := canonical(randTrace(rng, 30, false))
		data := binaryOf(t, tr)
		byteRE := regexp.MustCompile(`^t\.bin: byte \d+: `)
		for n := 0; n <= len(data); n++ {
			cut := data[:n]
			strict, err := readBinary(cut, false)
			if n == len(data) {
				if err != nil || !exactEqual(strict, tr) {
					t.Fatalf("trace %d: whole: %v", i, err)
				}
			} else if err == nil || !byteRE.MatchString(err.Error()) {
				t.Fatalf("trace %d cut at %d: strict: got %v", i, n, err)
			}

			lenient, err := readBinary(cut, true)
			if err != nil {
				t.Fatalf("trace %d cut at %d: lenient: %v", i, n, err)
			}
			if err := lenient.Check(); err != nil {
				t.Fatalf("trace %d cut at %d: lenient: %v", i, n, err)
			}
			k := len(lenient.Events)
			if sameEvents(&Trace{Tables: lenient.Tables, Events: lenient.Events}, &Trace{Tables: tr.Tables, Events: tr.Events[:min(k, len(tr.Events))]}) != "" {
				t.Fatalf("trace %d cut at %d: lenient: not a prefix", i, n)
			}
			switch {
			case n == len(data):
				if lenient.Truncated != tr.Truncated {
					t.Fatalf("trace %d: whole: lenient truncated %q", i, lenient.Truncated)
				}
			case n == len(data)-1 && tr.Truncated != "":
				// The reason was recorded before the cut.
				if k != len(tr.Events) || lenient.Truncated != tr.Truncated {
					t.Fatalf("trace %d cut at %d: lenient: %d events, truncated %q", i, n, k, lenient.Truncated)
				}
			default:
				want := fmt.Sprintf("trace ends at byte %d ", n)
				if !strings.HasPrefix(lenient.Truncated, want) {
					t.Fatalf("trace %d cut at %d: lenient truncated %q", i, n, lenient.Truncated)
				}
			}

			// Through the sniffing reader: the empty file is an empty
			// text trace.
			got, err := ReadTrace(bytes.NewReader(cut), "t.bin", ReadOptions{Lenient: true})
			if err != nil || len(got.Events) != k || (n > 0 && got.Truncated != lenient.Truncated) {
				t.Fatalf("trace %d cut at %d: lenient ReadTrace: %v", i, n, err)
			}
			_, err = ReadTrace(bytes.NewReader(cut), "t.bin", ReadOptions{})
			if (err == nil) != (n == 0 || n == len(data)) {
				t.Fatalf("trace %d cut at %d: strict ReadTrace: %v", i, n, err)
			}
		}
	}
}

func TestBinaryReadError(t *testing.T) {
	tr := canonical(randTrace(rand.New(rand.NewSource(6)), 100, false))
	data := binaryOf(t, tr)
	r := &failReader{data: data[:len(data)/2], err: errors.New("disk on fire")}
	_, err := ReadTrace(r, "t.bin", ReadOptions{Lenient: true})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") || !strings.Contains(err.Error(), "t.bin: byte ") {
		t.Errorf("got %v", err)
	}
	if !errors.Is(err, r.err) {
		t.Errorf("error does not wrap the reader's")
	}
}

// TestBinaryLongNames checks names around the buffer size and the limit.
func TestBinaryLongNames(t *testing.T) {
	for _, n := range []int{bufSize - 20, bufSize, bufSize + 1, 3 * bufSize, maxString} {
		name := strings.Repeat("x", n)
		tr := &Trace{Tables: Tables{Goroutines: []string{"g"}, Objects: []string{name}}}
		for range 3 {
			tr.Events = append(tr.Events, Event{G: 0, Op: Read, Obj: 0, Site: -1})
		}
		tr.Truncated = name
		data := binaryOf(t, tr)
		got, err := readBinary(data, false)
		if err != nil || !exactEqual(got, tr) {
			t.Fatalf("length %d: %v", n, err)
		}
		d, _ := newBinaryDecoder(oneByteReader{bytes.NewReader(data)}, "x", false)
		got, err = decodeAll(d)
		if err != nil || !exactEqual(got, tr) {
			t.Fatalf("length %d, one byte at a time: %v", n, err)
		}
	}
	tr := &Trace{Tables: Tables{Goroutines: []string{strings.Repeat("x", maxString+1)}}, Events: []Event{{Op: Begin, Obj: -1, Site: -1}}}
	if err := WriteBinary(io.Discard, tr); err == nil || !strings.Contains(err.Error(), "name longer than") {
		t.Errorf("too long a name: %v", err)
	}
}

// typicalTrace returns a trace shaped like a recorded run: goroutines
// running for a while, mostly memory accesses and locking, on a few
// thousand objects and sites.
func typicalTrace(n int) *Trace {
	rng := rand.New(rand.NewSource(7))
	tr := &Trace{}
	for i := range 16 {
		tr.Goroutines = append(tr.Goroutines, fmt.Sprintf("g%d", i))
	}
	for i := range 2000 {
		tr.Objects = append(tr.Objects, fmt.Sprintf("obj%d.field", i))
	}
	for i := range 500 {
		tr.Sites = append(tr.Sites, fmt.Sprintf("pkg/file%d.go:%d:%d", i%40, 10+i, 1+i%30))
	}
	g := int32(0)
	for len(tr.Events) < n {
		if rng.Intn(10) == 0 {
			g = int32(rng.Intn(len(tr.Goroutines)))
		}
		// Each goroutine works mostly on its own objects and sites.
		obj := int32(int(g)*100 + rng.Intn(150))
		site := int32(int(g)*25 + rng.Intn(40))
		e := Event{G: g, Obj: obj, Site: site}
		switch r := rng.Intn(100); {
		case r < 35:
			e.Op = Read
		case r < 60:
			e.Op = Write
		case r < 70:
			e.Op = AtomicLoad
		case r < 80:
			e.Op = Lock
		case r < 90:
			e.Op = Unlock
		case r < 95:
			e.Op = Send
			e.Arg = int64(rng.Intn(3))
		default:
			e.Op = Recv
			e.Arg = int64(rng.Intn(3))
		}
		tr.Events = append(tr.Events, e)
	}
	return tr
}

const benchEvents = 1 << 20

func BenchmarkEncode(b *testing.B) {
	tr := typicalTrace(benchEvents)
	var buf bytes.Buffer
	if err := WriteBinary(&buf, tr); err != nil {
		b.Fatal(err)
	}
	size := buf.Len()
	b.SetBytes(int64(size))
	b.ResetTimer()
	for range b.N {
		enc := NewBinaryEncoder(io.Discard)
		for _, e := range tr.Events {
			if err := enc.Encode(e, &tr.Tables); err != nil {
				b.Fatal(err)
			}
		}
		if err := enc.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*benchEvents/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(size)/benchEvents, "bytes/event")
}

func BenchmarkDecode(b *testing.B) {
	tr := typicalTrace(benchEvents)
	var buf bytes.Buffer
	if err := WriteBinary(&buf, tr); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		d, err := NewBinaryDecoder(bytes.NewReader(data), "bench")
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			_, err := d.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != benchEvents {
			b.Fatalf("%d events", n)
		}
	}
	b.ReportMetric(float64(b.N)*benchEvents/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkDecodeFreshObjects decodes TestNoRaceTinyAlloc's shape (the
// race detector's testdata): 4 goroutines, each event pair a read and a
// write of a new object, 524,288 object names in 1M events.
func BenchmarkDecodeFreshObjects(b *testing.B) { benchDecodeFresh(b, 0) }

// BenchmarkDecodeFreshObjectsSized is BenchmarkDecodeFreshObjects told how
// many object names come (ReadOptions.Objects, as check passes the count
// the recording's pass over the trace took).
func BenchmarkDecodeFreshObjectsSized(b *testing.B) { benchDecodeFresh(b, benchEvents/2) }

func benchDecodeFresh(b *testing.B, objects int) {
	tr := &Trace{Tables: Tables{Goroutines: []string{"g1.1.1", "g1.1.2", "g1.1.3", "g1.1.4"}, Sites: []string{"a.go:1", "a.go:2"}}}
	for i := 0; i < benchEvents/2; i++ {
		o := int32(len(tr.Objects))
		tr.Objects = append(tr.Objects, "TestNoRaceTinyAlloc.b#"+strconv.Itoa(i+1))
		g := int32(i % 4)
		tr.Events = append(tr.Events, Event{G: g, Op: Read, Obj: o, Site: 0}, Event{G: g, Op: Write, Obj: o, Site: 1})
	}
	var buf bytes.Buffer
	if err := WriteBinary(&buf, tr); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.ResetTimer()
	for range b.N {
		d, err := NewDecoderOptions(bytes.NewReader(data), "bench", ReadOptions{Objects: objects})
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := d.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchEvents), "ns/event")
}

// BenchmarkReadTrace includes building the in-memory trace.
func BenchmarkReadTrace(b *testing.B) {
	tr := typicalTrace(benchEvents)
	var buf bytes.Buffer
	if err := WriteBinary(&buf, tr); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.ResetTimer()
	for range b.N {
		if _, err := ReadTrace(bytes.NewReader(data), "bench", ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*benchEvents/b.Elapsed().Seconds(), "events/s")
}

func BenchmarkTextEncode(b *testing.B) {
	tr := typicalTrace(benchEvents)
	b.ResetTimer()
	for range b.N {
		if err := WriteText(io.Discard, tr); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*benchEvents/b.Elapsed().Seconds(), "events/s")
}

func BenchmarkTextDecode(b *testing.B) {
	tr := typicalTrace(benchEvents)
	var buf bytes.Buffer
	if err := WriteText(&buf, tr); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.ResetTimer()
	for range b.N {
		if _, err := ReadTrace(bytes.NewReader(data), "bench", ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*benchEvents/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(len(data))/benchEvents, "bytes/event")
}

// TestBinaryDistinctNames: an encoder told that names are distinct writes
// the same bytes as one that checks, and needs a name only until it has
// defined it (the recorder drops each object name once written).
func TestBinaryDistinctNames(t *testing.T) {
	tr := typicalTrace(5000)
	want := binaryOf(t, tr)
	var buf bytes.Buffer
	e := NewBinaryEncoder(&buf)
	e.(interface{ DistinctNames() }).DistinctNames()
	tab := Tables{Goroutines: tr.Goroutines, Objects: append([]string(nil), tr.Objects...), Sites: tr.Sites}
	for _, ev := range tr.Events {
		if err := e.Encode(ev, &tab); err != nil {
			t.Fatal(err)
		}
		if ev.Op.Object() == ObjObject {
			tab.Objects[ev.Obj] = ""
		}
	}
	e.SetTruncated(tr.Truncated)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("distinct-names encoding differs from the checking encoder's (%d vs %d bytes)", buf.Len(), len(want))
	}
}

// namesOf is an ObjectNames over a slice (LazyObjects' tests).
type namesOf []string

func (n namesOf) NumObjects() int { return len(n) }
func (n namesOf) AppendObjectName(dst []byte, i int32) []byte {
	return append(dst, n[i]...)
}

// TestBinaryLazyObjects: an encoder that takes object names from
// LazyObjects writes the same bytes as one given them in the tables, and
// still rejects an object index out of range and a name the format cannot
// hold.
func TestBinaryLazyObjects(t *testing.T) {
	tr := typicalTrace(5000)
	want := binaryOf(t, tr)
	var buf bytes.Buffer
	e := NewBinaryEncoder(&buf)
	e.(interface{ LazyObjects(ObjectNames) }).LazyObjects(namesOf(tr.Objects))
	tab := Tables{Goroutines: tr.Goroutines, Sites: tr.Sites} // no Objects
	for _, ev := range tr.Events {
		if err := e.Encode(ev, &tab); err != nil {
			t.Fatal(err)
		}
	}
	e.SetTruncated(tr.Truncated)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("lazy-names encoding differs from the tables' (%d vs %d bytes)", buf.Len(), len(want))
	}

	e = NewBinaryEncoder(io.Discard)
	e.(interface{ LazyObjects(ObjectNames) }).LazyObjects(namesOf{"x#1", "bad name", "x#01"})
	tab = Tables{Goroutines: []string{"g"}}
	for _, c := range []struct {
		obj  int32
		want string
	}{
		{3, "object index 3 out of range"},
		{1, "may not contain whitespace"},
		{2, "instance #01 does not exist"},
		{0, ""},
	} {
		err := e.Encode(Event{Op: Write, Obj: c.obj, Site: NoIndex}, &tab)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("object %d: error %v, want %q", c.obj, err, c.want)
		}
	}
}

// TestBinaryCountObjects: a decoder that only counts object names yields
// the same events, no object names, and still rejects an event on an
// object not defined.
func TestBinaryCountObjects(t *testing.T) {
	tr := typicalTrace(3000)
	data := binaryOf(t, tr)
	d, err := NewDecoderOptions(bytes.NewReader(data), "x", ReadOptions{CountObjects: true})
	if err != nil {
		t.Fatal(err)
	}
	var evs []Event
	for {
		e, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	full, err := readBinary(data, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(evs, full.Events) {
		t.Error("events differ from a full decode's")
	}
	if n := len(d.Tables().Objects); n != 0 {
		t.Errorf("%d object names kept", n)
	}
	if len(d.Tables().Goroutines) != len(full.Goroutines) {
		t.Errorf("goroutines: %d, want %d", len(d.Tables().Goroutines), len(full.Goroutines))
	}
	bad := bin(def(tagDefG, "g"), def(tagDefObj, "a"), int(Read)|bNewG, 0, 1, 0, tagEnd)
	d, err = NewDecoderOptions(bytes.NewReader(bad), "bad", ReadOptions{CountObjects: true})
	if err == nil {
		_, err = d.Next()
	}
	if err == nil || !strings.Contains(err.Error(), "undefined object 1 (1 defined)") {
		t.Errorf("event on an undefined object: %v", err)
	}
}
