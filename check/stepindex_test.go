package check

import (
	"maps"
	"math/rand"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/predict/schedule"
)

// TestStepIndex: the prefix sums and signatures read through a trace's
// stepIndex (shared by its predictions, asked in any order) are those
// read from each schedule's text, for every failure step: the sums, the
// next goroutines, whether they can be ok, and the signatures' next steps
// and anomaly owners.
func TestStepIndex(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	tr := &trace.Trace{Tables: trace.Tables{
		Goroutines: []string{"g1", "g1.1", "g1.2", "g2"},
		Objects:    []string{"x", "y", "m"},
		Sites:      []string{"a.go:1", "a.go:2", "a.go:3", "a.go:4"},
	}}
	ops := []trace.Op{trace.Read, trace.Write, trace.AtomicLoad, trace.Lock, trace.Unlock}
	for range 1500 {
		op := ops[rng.Intn(len(ops))]
		obj := int32(rng.Intn(2))
		if op == trace.Lock || op == trace.Unlock {
			obj = 2
		}
		tr.Events = append(tr.Events, trace.Event{G: int32(rng.Intn(4)), Op: op, Obj: obj, Site: int32(rng.Intn(4))})
	}
	pats, _ := pattern.Builtin("race")
	dir := t.TempDir()
	st := trace.NewScheduleText(tr, filepath.Join(dir, "steps"))
	idx := newStepIndex()
	var preds []prediction
	for k := range 40 {
		prefix := int32(rng.Intn(len(tr.Events) - 10))
		if k%5 == 0 {
			prefix = int32(k * 7) // shared prefixes, some of them short
		}
		rest := rng.Perm(len(tr.Events) - int(prefix))
		var tail []int32
		for _, i := range rest[:1+rng.Intn(min(12, len(rest)))] {
			tail = append(tail, prefix+int32(i))
		}
		anomaly := []int32{tail[len(tail)-1]}
		if len(tail) > 1 {
			anomaly = append([]int32{tail[0]}, anomaly...)
		} else if prefix > 3 && k%2 == 0 {
			anomaly = append([]int32{prefix - 3}, anomaly...)
		}
		a := predict.Anomaly{Pattern: pats[0], Events: anomaly, Schedule: schedule.Schedule{Prefix: prefix, Tail: tail}}
		p, err := newPrediction(st, idx, a, filepath.Join(dir, "p.schedule"))
		if err != nil {
			t.Fatal(err)
		}
		preds = append(preds, p)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for _, i := range rng.Perm(len(preds)) {
		p := preds[i]
		var ks []int
		for k := 0; k <= p.steps+1; k += 1 + rng.Intn(40) {
			ks = append(ks, k)
		}
		ks = append(ks, p.pre, p.pre+1, p.steps, p.steps+1, p.steps-1)
		got, ok := p.prefixSumsIdx(ks)
		if !ok {
			t.Fatalf("prediction %d: the index gave no sums", i)
		}
		want := p.prefixSumsText(ks)
		if !maps.Equal(got, want) {
			for _, k := range ks {
				if got[k] != want[k] {
					t.Errorf("prediction %d (prefix %d, %d steps), k=%d: index %+v, text %+v", i, p.pre, p.steps, k, got[k], want[k])
				}
			}
		}
		for _, k := range ks {
			if k < 1 {
				continue
			}
			sum := want[k].sum
			g, ok := p.sigAfterIdx(k, sum)
			if !ok {
				t.Fatalf("prediction %d: the index gave no signature at %d", i, k)
			}
			w := p.sigOf(k, &sum)
			if g.ok != w.ok || g.prefix != w.prefix || g.ok && (!maps.Equal(g.next, w.next) || g.owners != w.owners) {
				t.Errorf("prediction %d (prefix %d, %d steps), k=%d: index %+v, text %+v", i, p.pre, p.steps, k, g, w)
			}
			if w.ok != (p.sig(k).ok) {
				t.Errorf("prediction %d, k=%d: sigAfter ok %v, sig ok %v", i, k, w.ok, p.sig(k).ok)
			}
		}
	}
	// A scan from a line read further later (a prediction of a longer
	// prefix sharing the failure) gives what one read at once gives.
	fresh := newStepIndex()
	fresh.file = idx.file
	for _, k := range []int{0, 5, 300} {
		idx.mu.Lock()
		idx.firstFrom(k, k+3)
		got, ok1 := idx.firstFrom(k, k+900)
		idx.mu.Unlock()
		want, ok2 := fresh.firstFrom(k, k+900)
		if !ok1 || !ok2 || !slices.Equal(got, want) {
			t.Errorf("from %d: read on %v %v, read at once %v %v", k, ok1, got, ok2, want)
		}
	}
	if idx.bad || fresh.bad {
		t.Error("the index gave up on its file")
	}
}
