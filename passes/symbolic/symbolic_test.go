package symbolic_test

import (
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/pecanvet/pecanvet/passes/symbolic"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// reporter reports every own event of every function (calls excepted) at
// its position, as "OP LOC [held=…] [deferred]".
var reporter = &analysis.Analyzer{
	Name:       "symbolicreport",
	Doc:        "test: report symbolic events",
	Requires:   []*analysis.Analyzer{symbolic.Analyzer},
	ResultType: reflect.TypeFor[*symbolic.Result](),
	Run: func(pass *analysis.Pass) (any, error) {
		r := pass.ResultOf[symbolic.Analyzer].(*symbolic.Result)
		for _, f := range r.Funcs {
			for i := range f.Events {
				e := &f.Events[i]
				if e.Op == symbolic.OpCall {
					continue
				}
				pass.Reportf(e.Pos, "%s", e.String())
			}
		}
		return r, nil
	},
}

func TestEvents(t *testing.T) {
	res := analysistest.Run(t, analysistest.TestData(), reporter, "events")
	r := res[0].Result.(*symbolic.Result)
	if !r.HasConcurrency {
		t.Errorf("HasConcurrency = false, want true")
	}
}

// probe returns the symbolic result without checking facts (analysistest
// checks the facts of the analyzer it runs).
var probe = &analysis.Analyzer{
	Name:       "symbolicprobe",
	Doc:        "test: expose the symbolic result",
	Requires:   []*analysis.Analyzer{symbolic.Analyzer},
	ResultType: reflect.TypeFor[*symbolic.Result](),
	Run: func(pass *analysis.Pass) (any, error) {
		return pass.ResultOf[symbolic.Analyzer], nil
	},
}

func funcNamed(t *testing.T, r *symbolic.Result, name string) *symbolic.Func {
	t.Helper()
	for _, f := range r.Funcs {
		if f.Fn.String() == name {
			return f
		}
	}
	t.Fatalf("no function %s", name)
	return nil
}

func accesses(evs []symbolic.Event) []*symbolic.Event {
	var out []*symbolic.Event
	for i := range evs {
		if evs[i].Op.IsAccess() {
			out = append(out, &evs[i])
		}
	}
	return out
}

// TestFacts checks the exported summaries (want comments in lib and
// uselib) and that calls into lib splice them with the caller's locks.
func TestFacts(t *testing.T) {
	res := analysistest.Run(t, analysistest.TestData(), symbolic.Analyzer, "lib", "uselib")
	r := res[1].Result.(*symbolic.Result)
	if r.HasConcurrency {
		t.Errorf("uselib: HasConcurrency = true, want false")
	}
	evs, _ := r.Flat(funcNamed(t, r, "uselib.Use").Fn)
	acc := accesses(evs)
	if len(acc) != 5 {
		t.Fatalf("Flat(Use) has %d accesses, want 5: %v", len(acc), acc)
	}
	for i, e := range acc {
		if e.Loc != "lib.Counter.n" || !strings.Contains(e.Ext, "lib.go:") {
			t.Errorf("access %d = %v (ext %q), want lib.Counter.n from lib.go", i, e, e.Ext)
		}
		wantHeld := i < 2
		if got := len(e.Held) == 1 && e.Held[0].Lock == "lib.Counter.mu"; got != wantHeld {
			t.Errorf("access %d: held %v, want lib.Counter.mu held = %v", i, e.Held, wantHeld)
		}
		if e.Unit == 0 {
			t.Errorf("access %d: no unit for a method call", i)
		}
	}
	if r.MayPrecede(acc[1], acc[0]) || !r.MayPrecede(acc[0], acc[1]) {
		t.Errorf("order within lib.Inc's summary: read must precede write only")
	}
	if !r.MayPrecede(acc[4], acc[4]) {
		t.Errorf("lib.Loop's write repeats (loop), MayPrecede(e, e) = false")
	}
}

// flatResult analyzes testdata package flat once for the tests using it.
var (
	flatOnce sync.Once
	flatRes  *symbolic.Result
)

func flatResult(t *testing.T) *symbolic.Result {
	flatOnce.Do(func() {
		res := analysistest.Run(t, analysistest.TestData(), probe, "flat")
		flatRes = res[0].Result.(*symbolic.Result)
	})
	if flatRes == nil {
		t.Fatal("analysis of flat failed")
	}
	return flatRes
}

func TestFlat(t *testing.T) {
	r := flatResult(t)
	if !r.HasConcurrency {
		t.Errorf("flat imports sync: HasConcurrency = false")
	}
	twice := funcNamed(t, r, "flat.Twice")
	evs, trunc := r.Flat(twice.Fn)
	if trunc {
		t.Errorf("Flat(Twice) truncated")
	}
	acc := accesses(evs)
	if len(acc) != 3 {
		t.Fatalf("Flat(Twice): %d accesses, want 3 (read a, write b, write a): %v", len(acc), acc)
	}
	ra, wb, wa := acc[0], acc[1], acc[2]
	if ra.Loc != "flat.T.a" || !ra.Op.Reads() || wb.Loc != "flat.T.b" || wa.Loc != "flat.T.a" {
		t.Fatalf("accesses = %v %v %v", ra, wb, wa)
	}
	if ra.Unit == 0 || wb.Unit == 0 || ra.Unit == wb.Unit || wa.Unit != 0 {
		t.Errorf("units: get %d, set %d, own %d; want two distinct units and 0", ra.Unit, wb.Unit, wa.Unit)
	}
	if len(ra.Held) != 1 || len(wb.Held) != 1 || ra.Held[0].Lock != "flat.T.mu" || ra.Held[0].CS == wb.Held[0].CS || ra.Held[0].CS <= 0 {
		t.Errorf("held: %v / %v, want flat.T.mu in two distinct critical sections", ra.Held, wb.Held)
	}
	if len(wa.Held) != 0 {
		t.Errorf("loop write holds %v", wa.Held)
	}
	for _, c := range []struct {
		a, b *symbolic.Event
		want bool
	}{
		{ra, wb, true}, {wb, ra, false}, {ra, wa, true}, {wa, ra, false},
		{wa, wa, true}, {ra, ra, false},
	} {
		if got := r.MayPrecede(c.a, c.b); got != c.want {
			t.Errorf("MayPrecede(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	// The call graph has Twice's two calls.
	node := r.CallGraph.Nodes[twice.Fn]
	if node == nil || len(node.Out) != 2 {
		t.Errorf("call graph: Twice has %v, want 2 out edges", node)
	}
	// Recursion and generic calls are spliced safely.
	evs, _ = r.Flat(funcNamed(t, r, "flat.CallGeneric").Fn)
	var locs []string
	for _, e := range accesses(evs) {
		locs = append(locs, e.Op.String()+" "+e.Loc)
	}
	if got, want := strings.Join(locs, ", "), "write []E elem, write flat.g"; got != want {
		t.Errorf("Flat(CallGeneric) accesses = %s, want %s", got, want)
	}
}

func TestRepeatOnceSpawns(t *testing.T) {
	r := flatResult(t)
	for _, c := range []struct {
		fn     string
		repeat bool
	}{{"(*flat.T).InLoop", false}, {"(*flat.T).AroundLoop", true}} {
		for _, e := range accesses(funcNamed(t, r, c.fn).Events) {
			if len(e.Held) != 1 || e.Held[0].Repeat != c.repeat {
				t.Errorf("%s: %v held %+v, want Repeat %v", c.fn, e, e.Held, c.repeat)
			}
		}
	}
	evs, _ := r.Flat(funcNamed(t, r, "flat.Init").Fn)
	acc := accesses(evs)
	if len(acc) != 1 || len(acc[0].Held) != 1 || !acc[0].Held[0].Once || acc[0].Held[0].Lock != "flat.once" {
		t.Errorf("Once.Do body: %v, want a write of flat.g holding the Once flat.once", acc)
	}
	for name, want := range map[string]bool{"flat.spawn": true, "flat.Spawner": true, "flat.Twice": false, "flat.rec": false} {
		if got := funcNamed(t, r, name).Spawns; got != want {
			t.Errorf("%s: Spawns = %v, want %v", name, got, want)
		}
	}
	if !r.HasConcurrency {
		t.Errorf("HasConcurrency = false with a go statement")
	}
}
