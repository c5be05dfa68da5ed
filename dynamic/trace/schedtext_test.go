package trace

import (
	"bytes"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// ScheduleText's schedules read and write the file WriteSchedule writes
// for the same events, whatever the order they are asked for in (the
// steps file grows as a later prefix needs it), changed reads included.
func TestScheduleTextMatchesWriteSchedule(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	tr := &Trace{Tables: Tables{
		Goroutines: []string{"g1", "g1.1", "g1.2"},
		Objects:    []string{"x", "y", "m"},
		Sites:      []string{"a.go:1", "a.go:2", "a.go:3", "a.go:4"},
	}}
	ops := []Op{Read, Write, AtomicLoad, AtomicRMW, Lock, Unlock}
	for range 400 {
		op := ops[rng.Intn(len(ops))]
		obj := int32(rng.Intn(2))
		if op == Lock || op == Unlock {
			obj = 2
		}
		site := int32(rng.Intn(5) - 1) // -1: unknown
		var key int64
		if op.HasKey() {
			key = int64(rng.Intn(3)) // map elements (0: the whole map): the "keys" line
		}
		tr.Events = append(tr.Events, Event{G: int32(rng.Intn(3)), Op: op, Obj: obj, Site: site, Arg: key})
	}
	dir := t.TempDir()
	st := NewScheduleText(tr, filepath.Join(dir, "steps"))
	type want struct {
		text  string
		steps int
		anom  []Step
		tail  int
	}
	var wants []want
	var got []SchedText
	for k := range 60 {
		prefix := int32(rng.Intn(len(tr.Events) - 10))
		rest := rng.Perm(len(tr.Events) - int(prefix))
		var tail []int32
		for _, i := range rest[:1+rng.Intn(min(20, len(rest)))] {
			tail = append(tail, prefix+int32(i))
		}
		anomaly := []int32{tail[len(tail)-1]}
		if len(tail) > 1 {
			anomaly = append([]int32{tail[0]}, anomaly...)
		} else if prefix > 0 {
			anomaly = append([]int32{prefix - 1}, anomaly...)
		}
		sched := make([]int32, 0, int(prefix)+len(tail))
		for i := range prefix {
			sched = append(sched, i)
		}
		sched = append(sched, tail...)
		var b bytes.Buffer
		n, steps, err := WriteSchedule(&b, tr, "race/WR", sched, anomaly)
		if err != nil {
			t.Fatal(err)
		}
		s, err := st.Schedule("race/WR", prefix, tail, anomaly)
		if err != nil {
			t.Fatalf("schedule %d: %v", k, err)
		}
		wants = append(wants, want{b.String(), n, steps, len(tail)})
		got = append(got, s)
	}
	if _, err := st.Schedule("race/WR", 3, []int32{1}, []int32{1}); err == nil {
		t.Error("a tail event inside the prefix was taken")
	}
	if _, err := st.Schedule("race/WR", 3, []int32{5}, []int32{4}); err == nil {
		t.Error("an anomaly event outside the schedule was taken")
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	changed := 0
	for k, s := range got {
		w := wants[k]
		if bytes.Contains([]byte(w.text), []byte("\nchanged ")) {
			changed++
		}
		r, err := s.Open()
		if err != nil {
			t.Fatal(err)
		}
		text, _ := io.ReadAll(r)
		r.Close()
		if string(text) != w.text {
			t.Fatalf("schedule %d reads\n%s\nwant\n%s", k, text, w.text)
		}
		// The tail's lines end the text (check's stepIndex hashes
		// them after the trace's shared prefix).
		tl, err := s.Tail()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasSuffix(text, tl) || bytes.Count(tl, []byte("\n")) != w.tail {
			t.Fatalf("schedule %d's tail\n%s\nis not its last %d lines of\n%s", k, tl, w.tail, text)
		}
		path := filepath.Join(dir, "p")
		if err := s.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		if file, _ := os.ReadFile(path); string(file) != w.text {
			t.Fatalf("schedule %d's file\n%s\nwant\n%s", k, file, w.text)
		}
		if s.Steps != w.steps || len(s.Anomaly) != len(w.anom) {
			t.Fatalf("schedule %d: %d steps, anomaly %v; want %d, %v", k, s.Steps, s.Anomaly, w.steps, w.anom)
		}
		for i := range w.anom {
			if s.Anomaly[i] != w.anom[i] {
				t.Fatalf("schedule %d: anomaly %v; want %v", k, s.Anomaly, w.anom)
			}
		}
	}
	if changed == 0 {
		t.Error("no schedule had changed reads: the test does not compare them")
	}
}

// A ScheduleText's schedules keep byte ranges of the steps file, not
// their tails' text: a test's hundreds of predictions with long tails
// held 750 MB of it in memory (go-datastructures' btree/immutable). 200
// schedules of 5,000-step tails, each reordered in a few places as a
// prediction's is (about 30 bytes a line: 30 MB of text), must keep less
// than a tenth of that live.
func TestScheduleTextTailsNotInMemory(t *testing.T) {
	tr := &Trace{Tables: Tables{
		Goroutines: []string{"g1", "g1.1"},
		Objects:    []string{"x"},
		Sites:      []string{"a.go:1", "a.go:2"},
	}}
	const tailLen = 5000
	for i := range 2 * tailLen {
		tr.Events = append(tr.Events, Event{G: int32(i % 2), Op: Write, Obj: 0, Site: int32(i % 2)})
	}
	st := NewScheduleText(tr, filepath.Join(t.TempDir(), "steps"))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var kept []SchedText
	for k := range 200 {
		prefix := int32(k)
		tail := make([]int32, tailLen)
		for i := range tail {
			tail[i] = prefix + int32(i)
		}
		for i := 100; i+1 < tailLen; i += 500 {
			tail[i], tail[i+1] = tail[i+1], tail[i]
		}
		s, err := st.Schedule("race/WW", prefix, tail, []int32{tail[0], tail[1]})
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, s)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	live := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	var text int64
	for _, s := range kept {
		r, err := s.Open()
		if err != nil {
			t.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, r)
		r.Close()
		text += n
	}
	t.Logf("%d bytes live for %d bytes of schedule text", live, text)
	if text < 200*tailLen*20 {
		t.Fatalf("schedules of %d bytes: the test does not make long tails", text)
	}
	if live > text/10 {
		t.Errorf("%d schedules keep %d bytes live for %d bytes of schedule text", len(kept), live, text)
	}
}
