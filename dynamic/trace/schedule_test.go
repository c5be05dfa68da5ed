package trace

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

const fig1Text = `T1 write w @fig1.go:1
T2 write x @fig1.go:5
T1 read x @fig1.go:2
T1 read z @fig1.go:2
T1 read y @fig1.go:3
T2 write z @fig1.go:6
T2 write y @fig1.go:7
`

func TestScheduleRoundTrip(t *testing.T) {
	tr, err := ReadTrace(strings.NewReader(fig1Text), "fig1", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSchedule(tr, "race/WR", []int32{0, 1, 2, 3, 5, 6, 4}, []int32{6, 4})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := s.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	want := `# pecanvet schedule v2
anomaly race/WR 6 7
changed 7>6
T1 write w @fig1.go:1 n=1
T2 write x @fig1.go:5 n=1
T1 read x @fig1.go:2 n=1
T1 read z @fig1.go:2 n=2
T2 write z @fig1.go:6 n=1
T2 write y @fig1.go:7 n=1
T1 read y @fig1.go:3 n=1
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	s2, err := ParseSchedule(strings.NewReader(b.String()), "s")
	if err != nil {
		t.Fatal(err)
	}
	var b2 bytes.Buffer
	s2.WriteTo(&b2)
	if b2.String() != b.String() {
		t.Errorf("round trip changed the schedule:\n%s", b2.String())
	}
}

// The map keys of an anomaly's element accesses go in a "keys" line,
// which ParseSchedule puts back into the steps; a whole-map access and a
// step outside the anomaly have none.
func TestScheduleKeys(t *testing.T) {
	const text = `T1 read m @k.go:1 key=7
T2 write m @k.go:2 key=7
T1 write m @k.go:3 key=-3
T2 read m @k.go:4
`
	tr, err := ReadTrace(strings.NewReader(text), "k", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSchedule(tr, "av/RWW", []int32{0, 1, 3, 2}, []int32{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := s.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\nkeys 1=7 2=7 4=-3\n") {
		t.Fatalf("no keys line for the anomaly's steps 1, 2, 4:\n%s", b.String())
	}
	var w bytes.Buffer
	if _, _, err := WriteSchedule(&w, tr, "av/RWW", []int32{0, 1, 3, 2}, []int32{0, 1, 2}); err != nil || w.String() != b.String() {
		t.Fatalf("WriteSchedule (%v) wrote\n%s\nWriteTo\n%s", err, w.String(), b.String())
	}
	s2, err := ParseSchedule(strings.NewReader(b.String()), "s")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int64{7, 7, 0, -3} {
		if s2.Steps[i].MapKey != want {
			t.Errorf("step %d: key %d, want %d", i+1, s2.Steps[i].MapKey, want)
		}
	}
	if _, err := ParseSchedule(strings.NewReader(strings.Replace(b.String(), "4=-3", "9=-3", 1)), "s"); err == nil {
		t.Error("a key beyond the steps was taken")
	}
}

// WriteSchedule streams the file NewSchedule's WriteTo writes, and
// returns its anomaly's steps.
func TestWriteScheduleMatchesNewSchedule(t *testing.T) {
	tr, err := ReadTrace(strings.NewReader(fig1Text), "fig1", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sched, anomaly := []int32{0, 1, 2, 3, 5, 6, 4}, []int32{6, 4}
	s, err := NewSchedule(tr, "race/WR", sched, anomaly)
	if err != nil {
		t.Fatal(err)
	}
	var want, got bytes.Buffer
	s.WriteTo(&want)
	n, steps, err := WriteSchedule(&got, tr, "race/WR", sched, anomaly)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("WriteSchedule wrote\n%s\nNewSchedule\n%s", got.String(), want.String())
	}
	if n != len(s.Steps) || len(steps) != 2 || steps[0] != s.Steps[s.Anomaly[0]] || steps[1] != s.Steps[s.Anomaly[1]] {
		t.Errorf("WriteSchedule: %d steps, anomaly %v; want %d, %v and %v", n, steps, len(s.Steps), s.Steps[s.Anomaly[0]], s.Steps[s.Anomaly[1]])
	}
	if _, _, err := WriteSchedule(&got, tr, "race/WR", sched[:4], anomaly); err == nil {
		t.Error("WriteSchedule took an anomaly event outside the schedule")
	}
}

// A read moved ahead of the write it read, or ahead of one that came
// before it, is changed, as is one moved after a write that followed it;
// a read that keeps its write, or reads its own goroutine's, is not.
func TestChangedReads(t *testing.T) {
	const text = `a write x @f.go:1
b read x @f.go:2
a write y @f.go:3
b read y @f.go:4
b write z @f.go:5
b read z @f.go:6
a write x @f.go:7
b read x @f.go:8
`
	tr, err := ReadTrace(strings.NewReader(text), "t", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sched []int32
		want  string
	}{
		{[]int32{0, 1, 2, 3, 4, 5, 6, 7}, ""},    // the recorded order
		{[]int32{1, 0, 2, 3}, "1<2"},             // read x ahead of the write it read
		{[]int32{0, 1, 3, 4, 5}, "3<0"},          // read y ahead of a write left out
		{[]int32{0, 1, 2, 3, 4, 6, 5, 7}, ""},    // z is b's own
		{[]int32{0, 1, 2, 3, 4, 5, 7, 6}, "7<8"}, // the second read x ahead of a's second write
		{[]int32{0, 2, 3, 4, 5, 6, 1}, "7>6"},    // the first read x after the second write
		{[]int32{0, 1, 2, 4, 5, 6, 3, 7}, ""},    // read y moved, still after its write
	} {
		var got []string
		for _, ch := range ChangedReads(tr, c.sched) {
			got = append(got, ch.String())
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("schedule %v: changed %q, want %q", c.sched, g, c.want)
		}
	}
	if _, err := ParseSchedule(strings.NewReader("anomaly race/WR 1 2\nchanged 2<x\na read x @f.go:1 n=1\nb write x @f.go:2 n=1\n"), "s"); err == nil {
		t.Error("ParseSchedule took a bad changed read")
	}
	s, err := ParseSchedule(strings.NewReader("anomaly race/WR 1 2\nchanged 1<2 2<0\na read x @f.go:1 n=1\nb write x @f.go:2 n=1\n"), "s")
	if err != nil {
		t.Fatal(err)
	}
	if want := []Change{{0, 1, true}, {1, -1, true}}; len(s.Changed) != 2 || s.Changed[0] != want[0] || s.Changed[1] != want[1] {
		t.Errorf("parsed changed %v, want %v", s.Changed, want)
	}
}

func TestScheduleOccurrences(t *testing.T) {
	tr, _ := ReadTrace(strings.NewReader("a read x @f.go:1\na read x @f.go:1\nb write x @f.go:2\na read x @f.go:1\n"), "t", ReadOptions{})
	s, err := NewSchedule(tr, "race/RW", []int32{0, 1, 3, 2}, []int32{3, 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Steps[2].N; got != 3 {
		t.Errorf("third read has n=%d, want 3", got)
	}
}

func TestScheduleErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"", "no anomaly line"},
		{"anomaly race/RW 1\n", "no steps"},
		{"# pecanvet schedule v9\n", "unsupported schedule version"},
		{"anomaly race/RW 1\na rd x n=1\n", ":2: unknown op"},
		{"anomaly race/RW 1\na read x @f.go:1\n", ":2: a step ends with n=K"},
		{"anomaly race/RW 1\na read x @f.go:1 n=0\n", ":2: bad occurrence"},
		{"anomaly race/RW 3\na read x n=1\n", ":1: anomaly step 3 beyond"},
		{"anomaly race/RW 1\na read x @f.go:1 n=2\n", "occurrence 2, want 1"},
		{"anomaly race/RW x\n", ":1: bad step number"},
		{"anomaly race/RW 1\nanomaly race/RW 1\n", ":2: second anomaly line"},
		// Objects and their instances ("generations": the k-th allocation).
		{"anomaly race/WW 1 2\na write x#0 @f.go:1 n=1\nb write x#1 @f.go:2 n=1\n", "s:2: bad object \"x#0\": instance #0 does not exist"},
		{"anomaly race/WW 1 2\na write x#1 @f.go:1 n=1\nb write x#01 @f.go:2 n=1\n", "s:3: bad object \"x#01\": instance #01 does not exist"},
		{"anomaly race/WW 1 2\na write x#1 @f.go:1 n=1\nb write @f.go:2 n=1\n", "s:3: anomaly step 2 (b write @f.go:2 n=1) names no object"},
		{"anomaly race/WW 1 2\na write x=1 @f.go:1 n=1\nb write x @f.go:2 n=1\n", "s:2: bad object \"x=1\""},
	} {
		_, err := ParseSchedule(strings.NewReader(tc.src), "s")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.src, err, tc.want)
		}
	}
}

func FuzzScheduleDecode(f *testing.F) {
	f.Add("# pecanvet schedule v1\nbuild ab12\nanomaly race/RW 2 1\na read x @f.go:1 n=1\nb write x @f.go:2 n=1\n")
	f.Add("anomaly av/RWR 1 3 2\ng1 read c.n#1 @c.go:3:4 n=1\ng2 write c.n#1 @c.go:9 n=1\ng1 read c.n#1 @c.go:3:4 n=2\n")
	f.Add("# pecanvet schedule v2\nanomaly race/WW 2 3\ng1 fork g1.1 @m.go:1 n=1\ng1.1 write b#1 @m.go:2 n=1\ng1 write b#2 @m.go:3 n=1\n")
	f.Add("anomaly race/WW 1 2\na write x#0 @f.go:1 n=1\nb write x#1 @f.go:2 n=1\n")
	f.Add("anomaly race/WW 1 2\na write x#1 @f.go:1 n=1\nb write @f.go:2 n=1\n")
	f.Fuzz(func(t *testing.T, src string) {
		s, err := ParseSchedule(strings.NewReader(src), "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		var b bytes.Buffer
		if _, err := s.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		s2, err := ParseSchedule(bytes.NewReader(b.Bytes()), "again")
		if err != nil {
			t.Fatalf("re-parse of written schedule: %v\n%s", err, b.String())
		}
		var b2 bytes.Buffer
		s2.WriteTo(&b2)
		if b.String() != b2.String() {
			t.Fatalf("not stable:\n%s\n%s", b.String(), b2.String())
		}
	})
}

// TestAppendFields: ParseSchedule's field splitter splits as strings.Fields
// does (ASCII and Unicode spaces alike) and interns equal fields.
func TestAppendFields(t *testing.T) {
	intern := map[string]string{}
	for _, line := range []string{
		"", " ", "g1 read x @a.go:1:2 n=1", "\tg1  write\vy\f@b.go:3:4\rn=2 ",
		"g1 lock m\u00a0x @c.go:1:1 n=1", "g1.2 recv <-chan_time.Time#3 @é.go:9:9 n=10\u0085",
		"  leading and trailing  ",
	} {
		got := appendFields([]string{"stale"}, []byte(line), intern)
		if want := append([]string{"stale"}, strings.Fields(line)...); !slices.Equal(got, want) {
			t.Errorf("appendFields(%q) = %q, want %q", line, got, want)
		}
	}
	a := appendFields(nil, []byte("g1 g1"), intern)
	if unsafe.StringData(a[0]) != unsafe.StringData(a[1]) {
		t.Error("equal fields not interned")
	}
}
