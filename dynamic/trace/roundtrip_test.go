package trace

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// Helpers shared by the tests of this package.

// decodeAll reads all of d.
func decodeAll(d Decoder) (*Trace, error) {
	tr := new(Trace)
	for {
		e, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		tr.Events = append(tr.Events, e)
	}
	tr.Tables = *d.Tables()
	tr.Truncated = d.Truncated()
	return tr, nil
}

func readText(data []byte, lenient bool) (*Trace, error) {
	return decodeAll(newTextDecoder(bytes.NewReader(data), "t.txt", lenient))
}

func readBinary(data []byte, lenient bool) (*Trace, error) {
	d, err := newBinaryDecoder(bytes.NewReader(data), "t.bin", lenient)
	if err != nil {
		return nil, err
	}
	return decodeAll(d)
}

func textOf(t testing.TB, tr *Trace) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteText(&buf, tr); err != nil {
		t.Fatalf("WriteText: %v", err)
	}
	return buf.Bytes()
}

func binaryOf(t testing.TB, tr *Trace) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteBinary(&buf, tr); err != nil {
		t.Fatalf("WriteBinary: %v", err)
	}
	return buf.Bytes()
}

// exactEqual reports whether a and b are equal index for index (nil and
// empty slices are equal).
func exactEqual(a, b *Trace) bool {
	return slices.Equal(a.Goroutines, b.Goroutines) && slices.Equal(a.Objects, b.Objects) &&
		slices.Equal(a.Sites, b.Sites) && slices.Equal(a.Events, b.Events) && a.Truncated == b.Truncated
}

// sameEvents reports whether a and b hold the same events under the same
// names, whatever the numbering; if not, it says where they differ.
func sameEvents(a, b *Trace) string {
	if a.Truncated != b.Truncated {
		return fmt.Sprintf("truncated %q vs %q", a.Truncated, b.Truncated)
	}
	if len(a.Events) != len(b.Events) {
		return fmt.Sprintf("%d vs %d events", len(a.Events), len(b.Events))
	}
	for i := range a.Events {
		ea, eb := a.Events[i], b.Events[i]
		if ea.Op != eb.Op || ea.Flags != eb.Flags || ea.Arg != eb.Arg || ea.Val != eb.Val ||
			a.Goroutines[ea.G] != b.Goroutines[eb.G] || a.ObjName(ea) != b.ObjName(eb) ||
			(ea.Obj < 0) != (eb.Obj < 0) || a.Site(ea) != b.Site(eb) || (ea.Site < 0) != (eb.Site < 0) {
			return fmt.Sprintf("event %d: %s vs %s", i+1, describe(a, ea), describe(b, eb))
		}
	}
	return ""
}

func describe(tr *Trace, e Event) string {
	return fmt.Sprintf("{%s %s %q @%q flags=%d arg=%d val=%d}", tr.Goroutines[e.G], e.Op, tr.ObjName(e), tr.Site(e), e.Flags, e.Arg, e.Val)
}

// canonical returns tr renumbered the way the decoders number it: tables
// in order of first use (goroutine, object, site of each event), without
// unused or duplicate names.
func canonical(tr *Trace) *Trace {
	out := &Trace{Truncated: tr.Truncated}
	in := NewInterner(&out.Tables)
	for _, e := range tr.Events {
		e.G, _ = in.Intern(TabGoroutine, tr.Goroutines[e.G])
		switch e.Op.Object() {
		case ObjObject:
			e.Obj, _ = in.Intern(TabObject, tr.Objects[e.Obj])
		case ObjGoroutine:
			e.Obj, _ = in.Intern(TabGoroutine, tr.Goroutines[e.Obj])
		}
		if e.Site >= 0 {
			e.Site, _ = in.Intern(TabSite, tr.Sites[e.Site])
		}
		out.Events = append(out.Events, e)
	}
	return out
}

var (
	genNames = []string{"main", "g1", "g2", "1", "1.2", "Counter.n", "x#y", "a@b", "ü", "日本", "chan(int)#3",
		"(*T).m", "$x", "\"q\"", "'", "a,b", "x:1", "%s", "\\", "ﬁ", "g-1_2", "\u00e9\u0301"}
	genSites = []string{"main.go:1", "dir/f.go:3:4", `C:\x\y.go:7`, "a=b.go:1", "#x.go:2:2", "@y:5",
		"f.go:12:1", "x:2147483647:1", "a:b:3", "日本.go:9", "0:1"}
	genReasons = []string{"", "", "", "panic: boom", "panic: boom\n\ngoroutine 1 [running]:\n\tmain.main()",
		`"quoted"`, " lead", "trail ", "tab\there", "\xff\xfe", "timeout after 10s", "#", "\"", "a\r\nb"}
)

// randName returns a random valid name: from genNames or generated.
func randName(rng *rand.Rand) string {
	if rng.Intn(3) > 0 {
		return genNames[rng.Intn(len(genNames))]
	}
	const chars = "abcXYZ019._-#@()*[]{}<>/\\:;,!?$%^&|~`'\"+"
	var b strings.Builder
	for n := 1 + rng.Intn(8); b.Len() < n; {
		c := chars[rng.Intn(len(chars))]
		if b.Len() == 0 && (c == '#' || c == '@') {
			continue
		}
		b.WriteByte(c)
	}
	if msg, _ := checkObjectName(b.String()); msg != "" {
		b.WriteByte('x') // "#0" names no object instance
	}
	return b.String()
}

func randSite(rng *rand.Rand) string {
	if rng.Intn(2) == 0 {
		return genSites[rng.Intn(len(genSites))]
	}
	s := fmt.Sprintf("%s.go:%d", randName(rng), 1+rng.Intn(5000))
	if rng.Intn(2) == 0 {
		s += fmt.Sprintf(":%d", 1+rng.Intn(80))
	}
	return s
}

// randTables returns a table of n distinct names.
func randTable(rng *rand.Rand, n int, gen func(*rand.Rand) string) []string {
	seen := map[string]bool{}
	var tab []string
	for tries := 0; len(tab) < n && tries < 100*n; tries++ {
		s := gen(rng)
		if !seen[s] {
			seen[s] = true
			tab = append(tab, s)
		}
	}
	return tab
}

var interestingArgs = []int64{0, 1, 2, 63, 64, 127, 128, 1 << 20, math.MaxInt32, math.MaxInt64}

// randTrace returns a random valid trace with up to n events. Its tables
// are in random order and may hold unused names; with dups, also
// duplicate names (Check allows them).
func randTrace(rng *rand.Rand, n int, dups bool) *Trace {
	tr := &Trace{}
	tr.Goroutines = randTable(rng, 1+rng.Intn(6), randName)
	tr.Objects = randTable(rng, 1+rng.Intn(10), randName)
	if rng.Intn(5) > 0 {
		tr.Sites = randTable(rng, 1+rng.Intn(10), randSite)
	}
	if dups && len(tr.Objects) > 0 {
		tr.Objects = append(tr.Objects, tr.Objects[0])
		tr.Goroutines = append(tr.Goroutines, tr.Goroutines[rng.Intn(len(tr.Goroutines))])
	}
	tr.Truncated = genReasons[rng.Intn(len(genReasons))]
	g := int32(0)
	for range rng.Intn(n + 1) {
		if rng.Intn(4) == 0 {
			g = int32(rng.Intn(len(tr.Goroutines)))
		}
		e := Event{G: g, Op: Op(1 + rng.Intn(int(numOps)-1)), Obj: NoIndex, Site: NoIndex}
		switch e.Op.Object() {
		case ObjObject:
			e.Obj = int32(rng.Intn(len(tr.Objects)))
		case ObjGoroutine:
			e.Obj = int32(rng.Intn(len(tr.Goroutines)))
		}
		if len(tr.Sites) > 0 && rng.Intn(5) > 0 {
			e.Site = int32(rng.Intn(len(tr.Sites)))
		}
		if e.Op.HasCap() && rng.Intn(2) == 0 {
			e.Arg = interestingArgs[rng.Intn(len(interestingArgs))]
		}
		if e.Op.HasDelta() {
			e.Arg = interestingArgs[rng.Intn(len(interestingArgs))]
			if rng.Intn(2) == 0 {
				e.Arg = -e.Arg
			}
			if rng.Intn(10) == 0 {
				e.Arg = math.MinInt64
			}
		}
		if e.Op.HasKey() && rng.Intn(3) == 0 {
			// A map element's key hash: any non-zero int64.
			e.Arg = interestingArgs[1+rng.Intn(len(interestingArgs)-1)]
			if rng.Intn(2) == 0 {
				e.Arg = -e.Arg
			}
		}
		if (e.Op == Recv || e.Op == Send) && rng.Intn(3) == 0 {
			e.Flags = FlagClosed
		}
		if e.Op == Write && rng.Intn(3) == 0 {
			// A stored value's identity: any uint64, 0 included.
			e.Flags = FlagVal
			e.Val = uint64(interestingArgs[rng.Intn(len(interestingArgs))])
			if rng.Intn(2) == 0 {
				e.Val = -e.Val
			}
		} else if e.Op == Write && rng.Intn(3) == 0 {
			// A stored slice's length (any uint64 decodes).
			e.Flags = FlagLen
			e.Val = uint64(rng.Intn(5))
			if rng.Intn(4) == 0 {
				e.Val = uint64(interestingArgs[rng.Intn(len(interestingArgs))])
			}
		}
		tr.Events = append(tr.Events, e)
	}
	return tr
}

func TestRandTraceValid(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for range 100 {
		tr := randTrace(rng, 50, true)
		if err := tr.Check(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRoundTrip checks every conversion between the formats on random
// traces.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for i := range 500 {
		tr := randTrace(rng, 60, i%2 == 1)
		want := canonical(tr)

		// Trace → text → Trace.
		txt := textOf(t, tr)
		fromText, err := readText(txt, false)
		if err != nil {
			t.Fatalf("trace %d: reading text: %v\n%s", i, err, txt)
		}
		if !exactEqual(fromText, want) {
			t.Fatalf("trace %d: text round trip: %s\n%s", i, sameEvents(fromText, want), txt)
		}
		// Trace → binary → Trace.
		bin := binaryOf(t, tr)
		fromBin, err := readBinary(bin, false)
		if err != nil {
			t.Fatalf("trace %d: reading binary: %v", i, err)
		}
		if !exactEqual(fromBin, want) {
			t.Fatalf("trace %d: binary round trip: %s", i, sameEvents(fromBin, want))
		}
		if d := sameEvents(tr, fromBin); d != "" {
			t.Fatalf("trace %d: binary round trip not semantically equal: %s", i, d)
		}
		// Writing is deterministic and independent of the numbering:
		// text → Trace → text, binary → Trace → binary, and across.
		if got := textOf(t, fromText); !bytes.Equal(got, txt) {
			t.Fatalf("trace %d: text not canonical:\n%s\nvs\n%s", i, got, txt)
		}
		if got := binaryOf(t, fromBin); !bytes.Equal(got, bin) {
			t.Fatalf("trace %d: binary → trace → binary differs", i)
		}
		if got := textOf(t, fromBin); !bytes.Equal(got, txt) {
			t.Fatalf("trace %d: binary → text differs from trace → text", i)
		}
		if got := binaryOf(t, fromText); !bytes.Equal(got, bin) {
			t.Fatalf("trace %d: text → binary differs from trace → binary", i)
		}
		// Through the sniffing reader.
		for _, data := range [][]byte{txt, bin} {
			got, err := ReadTrace(bytes.NewReader(data), "x", ReadOptions{})
			if err != nil || !exactEqual(got, want) {
				t.Fatalf("trace %d: ReadTrace: %v", i, err)
			}
			got, err = ReadTrace(bytes.NewReader(data), "x", ReadOptions{Lenient: true})
			if err != nil || !exactEqual(got, want) {
				t.Fatalf("trace %d: lenient ReadTrace: %v", i, err)
			}
		}
	}
}

// TestStreaming encodes with tables that grow between calls, as the
// recorder does, and decodes from a reader that returns one byte at a time.
func TestStreaming(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for i := range 50 {
		full := canonical(randTrace(rng, 200, false))
		for _, format := range []string{"text", "binary"} {
			var buf bytes.Buffer
			var enc Encoder
			if format == "text" {
				enc = NewTextEncoder(&buf)
			} else {
				enc = NewBinaryEncoder(&buf)
			}
			// Tables holding only the names used so far.
			var tabs Tables
			for _, e := range full.Events {
				tabs.Goroutines = full.Goroutines[:max(int(e.G)+1, len(tabs.Goroutines))]
				if e.Op.Object() == ObjGoroutine {
					tabs.Goroutines = full.Goroutines[:max(int(e.Obj)+1, len(tabs.Goroutines))]
				}
				if e.Op.Object() == ObjObject {
					tabs.Objects = full.Objects[:max(int(e.Obj)+1, len(tabs.Objects))]
				}
				if e.Site >= 0 {
					tabs.Sites = full.Sites[:max(int(e.Site)+1, len(tabs.Sites))]
				}
				if err := enc.Encode(e, &tabs); err != nil {
					t.Fatal(err)
				}
			}
			enc.SetTruncated(full.Truncated)
			if err := enc.Close(); err != nil {
				t.Fatal(err)
			}
			d, err := NewDecoder(oneByteReader{bytes.NewReader(buf.Bytes())}, "x")
			if err != nil {
				t.Fatal(err)
			}
			got, err := decodeAll(d)
			if err != nil {
				t.Fatalf("trace %d %s: %v", i, format, err)
			}
			if !exactEqual(got, full) {
				t.Fatalf("trace %d %s: %s", i, format, sameEvents(got, full))
			}
		}
	}
}

type oneByteReader struct{ r io.Reader }

func (r oneByteReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	return r.r.Read(p[:1])
}

// TestWriterRejects checks that names the formats cannot hold and invalid
// events are rejected by both writers, which stay usable.
func TestWriterRejects(t *testing.T) {
	badNames := []string{"", "a b", "a\tb", "a=b", "#a", "@a", "a\nb", "a\x00", "\xff", "a\u00a0b", "a\u200bb", "a\x7f"}
	badSites := []string{"", "a.go", "a.go:0", "a.go:x", ":1", "a.go:1:0", "a.go:0:1", "a b.go:1", "a.go:1:", "a.go:99999999999"}
	type tc struct {
		name string
		tr   Trace
		want string
	}
	var cases []tc
	for _, n := range badNames {
		cases = append(cases,
			tc{"goroutine " + n, Trace{Tables: Tables{Goroutines: []string{n}}, Events: []Event{{G: 0, Op: Begin, Obj: -1, Site: -1}}}, "cannot write goroutine 0"},
			tc{"object " + n, Trace{Tables: Tables{Goroutines: []string{"g"}, Objects: []string{n}}, Events: []Event{{G: 0, Op: Read, Obj: 0, Site: -1}}}, "cannot write object 0"},
			tc{"child " + n, Trace{Tables: Tables{Goroutines: []string{"g", n}}, Events: []Event{{G: 0, Op: Fork, Obj: 1, Site: -1}}}, "cannot write goroutine 1"},
		)
	}
	for _, s := range badSites {
		cases = append(cases, tc{"site " + s, Trace{Tables: Tables{Goroutines: []string{"g"}, Sites: []string{s}}, Events: []Event{{G: 0, Op: Begin, Obj: -1, Site: 0}}}, "cannot write site 0"})
	}
	tabs := Tables{Goroutines: []string{"g"}, Objects: []string{"o"}, Sites: []string{"a.go:1"}}
	for _, c := range []struct {
		e    Event
		want string
	}{
		{Event{G: 1, Op: Begin, Obj: -1, Site: -1}, "goroutine index 1 out of range"},
		{Event{G: 0, Op: 0, Obj: -1, Site: -1}, "unknown op 0"},
		{Event{G: 0, Op: numOps, Obj: -1, Site: -1}, "unknown op 27"},
		{Event{G: 0, Op: Begin, Obj: 0, Site: -1}, "begin takes no object"},
		{Event{G: 0, Op: Read, Obj: 1, Site: -1}, "object index 1 out of range"},
		{Event{G: 0, Op: Read, Obj: -1, Site: -1}, "object index -1 out of range"},
		{Event{G: 0, Op: Join, Obj: 3, Site: -1}, "goroutine index 3 out of range"},
		{Event{G: 0, Op: Read, Obj: 0, Site: 1}, "site index 1 out of range"},
		{Event{G: 0, Op: Read, Obj: 0, Site: -2}, "site index -2 out of range"},
		{Event{G: 0, Op: AtomicLoad, Obj: 0, Site: -1, Arg: 1}, "atomic-load takes no argument"},
		{Event{G: 0, Op: Send, Obj: 0, Site: -1, Arg: -1}, "negative capacity"},
		{Event{G: 0, Op: Close, Obj: 0, Site: -1, Flags: FlagClosed}, "invalid flags"},
		{Event{G: 0, Op: Send, Obj: 0, Site: -1, Flags: FlagAdd}, "invalid flags"},
		{Event{G: 0, Op: Recv, Obj: 0, Site: -1, Flags: 2}, "invalid flags"},
		{Event{G: 0, Op: AtomicLoad, Obj: 0, Site: -1, Flags: FlagAdd}, "invalid flags"},
		{Event{G: 0, Op: AtomicRMW, Obj: 0, Site: -1, Flags: FlagAnd | FlagOr}, "invalid flags"},
		{Event{G: 0, Op: Read, Obj: 0, Site: -1, Flags: FlagVal}, "invalid flags"},
		{Event{G: 0, Op: Read, Obj: 0, Site: -1, Flags: FlagLen}, "invalid flags"},
		{Event{G: 0, Op: Write, Obj: 0, Site: -1, Flags: FlagLen | FlagVal}, "invalid flags"},
		{Event{G: 0, Op: Write, Obj: 0, Site: -1, Val: 1}, "without FlagVal"},
	} {
		cases = append(cases, tc{"event " + c.want, Trace{Tables: tabs, Events: []Event{c.e}}, c.want})
	}
	good := Event{G: 0, Op: Begin, Obj: -1, Site: -1}
	for _, c := range cases {
		for _, format := range []string{"text", "binary"} {
			var buf bytes.Buffer
			enc := NewTextEncoder(&buf)
			if format == "binary" {
				enc = NewBinaryEncoder(&buf)
			}
			err := enc.Encode(c.tr.Events[0], &c.tr.Tables)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "event 1") {
				t.Errorf("%s %s: got error %v, want %q", format, c.name, err, c.want)
				continue
			}
			// The encoder is still usable, and wrote nothing for the
			// rejected event.
			c.tr.Goroutines = append(c.tr.Goroutines, "ok")
			good.G = int32(len(c.tr.Goroutines) - 1)
			if err := enc.Encode(good, &c.tr.Tables); err != nil {
				t.Errorf("%s %s: after rejection: %v", format, c.name, err)
			}
			c.tr.Goroutines = c.tr.Goroutines[:len(c.tr.Goroutines)-1]
			if err := enc.Close(); err != nil {
				t.Fatal(err)
			}
			got, err := ReadTrace(&buf, "x", ReadOptions{})
			want := &Trace{Tables: Tables{Goroutines: []string{"ok"}}, Events: []Event{{Op: Begin, Obj: -1, Site: -1}}}
			if err != nil || !exactEqual(got, want) {
				t.Errorf("%s %s: after rejection, wrote %v, %v", format, c.name, got, err)
			}
		}
	}
}

func TestEncoderClosed(t *testing.T) {
	for _, enc := range []Encoder{NewTextEncoder(io.Discard), NewBinaryEncoder(io.Discard)} {
		if err := enc.Close(); err != nil {
			t.Fatal(err)
		}
		if err := enc.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
		if err := enc.Encode(Event{Op: Begin, Obj: -1, Site: -1}, &Tables{Goroutines: []string{"g"}}); err == nil {
			t.Errorf("%T: Encode after Close succeeded", enc)
		}
	}
}

type errWriter struct{ n int }

func (w *errWriter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, fmt.Errorf("disk full")
	}
	return len(p), nil
}

func TestWriteError(t *testing.T) {
	tr := &Trace{Tables: Tables{Goroutines: []string{"g"}}}
	for range 100000 {
		tr.Events = append(tr.Events, Event{G: 0, Op: Begin, Obj: -1, Site: -1})
	}
	if err := WriteText(&errWriter{n: 1000}, tr); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("WriteText: %v", err)
	}
	if err := WriteBinary(&errWriter{n: 1000}, tr); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("WriteBinary: %v", err)
	}
}

// TestOpCodes pins the op values, which the binary format uses.
func TestOpCodes(t *testing.T) {
	want := []string{"invalid", "read", "write", "atomic-load", "atomic-store", "atomic-rmw", "lock", "unlock",
		"rlock", "runlock", "fork", "begin", "end", "join", "send", "recv", "close", "wg-add", "wg-done",
		"wg-wait", "once", "cond-wait", "cond-signal", "cond-broadcast", "region-begin", "region-end", "sleep"}
	if int(numOps) != len(want) {
		t.Fatalf("%d ops, want %d: the binary format needs a new version", numOps, len(want))
	}
	for i, name := range want {
		if Op(i).String() != name {
			t.Errorf("op %d is %s, want %s: the binary format needs a new version", i, Op(i), name)
		}
	}
	if numOps > opMask+1 {
		t.Errorf("too many ops for the binary event header")
	}
}

// TestBlockedApart checks that the operations a test ended blocked in
// (FlagBlocked) are read into Trace.Blocked, not Events, in both
// formats, and written back after the events.
func TestBlockedApart(t *testing.T) {
	src := "g1 fork g1.1 @x.go:3\ng1.1 begin\ng1 recv ch @x.go:5\ng1.1 send ch @x.go:9:2 blocked=true\n"
	tr, err := ReadTrace(strings.NewReader(src), "t.txt", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) != 3 || len(tr.Blocked) != 1 || tr.Blocked[0].Op != Send || tr.Sites[tr.Blocked[0].Site] != "x.go:9:2" {
		t.Fatalf("events %v, blocked %v", tr.Events, tr.Blocked)
	}
	for _, write := range []func(io.Writer, *Trace) error{WriteText, WriteBinary} {
		var b bytes.Buffer
		if err := write(&b, tr); err != nil {
			t.Fatal(err)
		}
		back, err := ReadTrace(&b, "back", ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(back.Events, tr.Events) || !slices.Equal(back.Blocked, tr.Blocked) {
			t.Errorf("read back: events %v, blocked %v; want %v, %v", back.Events, back.Blocked, tr.Events, tr.Blocked)
		}
	}
}
