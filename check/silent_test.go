package check

import (
	"slices"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// TestSilentStores: a reproduced atomicity or atomic-set violation whose
// steps are conflict-serializable once the atomic stores its replay found
// silent (replay.Verdict.Silent) count as reads changes no value anyone
// reads: it needs no dependence judging (goburrow/cache's write storing
// an entry's writeTime onto itself between Get's expiry check and its
// refresh). A silent store that leaves a cycle (the unit's own store of
// the value there, then another goroutine's real write it reads back),
// a race, an explored verdict or no silent step keep the finding judged.
func TestSilentStores(t *testing.T) {
	pat := func(kind, name string) *pattern.Pattern {
		ps, _ := pattern.Builtin(kind)
		for _, p := range ps {
			if p.Name == name {
				return p
			}
		}
		t.Fatalf("no pattern %s/%s", kind, name)
		return nil
	}
	st := func(g string, op trace.Op, obj string) trace.Step {
		return trace.Step{G: g, Op: op, Obj: obj, Site: "x.go:1:1", N: 1}
	}
	const (
		ld = trace.AtomicLoad
		so = trace.AtomicStore
	)
	for _, c := range []struct {
		name     string
		p        *pattern.Pattern
		steps    []trace.Step
		silent   []int // 1-based
		explored bool
		want     []int // 0-based
	}{
		{"RWW, the remote store silent", pat("av", "RWW"),
			[]trace.Step{st("g1", ld, "x#1"), st("g2", so, "x#1"), st("g1", so, "x#1")}, []int{2}, false, []int{1}},
		{"RWW, nothing silent", pat("av", "RWW"),
			[]trace.Step{st("g1", ld, "x#1"), st("g2", so, "x#1"), st("g1", so, "x#1")}, nil, false, nil},
		{"RWR, the remote store silent", pat("av", "RWR"),
			[]trace.Step{st("g1", ld, "x#1"), st("g2", so, "x#1"), st("g1", ld, "x#1")}, []int{2}, false, []int{1}},
		{"WWR, the unit's own store silent", pat("av", "WWR"),
			[]trace.Step{st("g1", so, "x#1"), st("g2", so, "x#1"), st("g1", ld, "x#1")}, []int{1}, false, nil},
		{"WWR, the remote store silent", pat("av", "WWR"),
			[]trace.Step{st("g1", so, "x#1"), st("g2", so, "x#1"), st("g1", ld, "x#1")}, []int{2}, false, []int{1}},
		{"RWW, a plain write cannot be silent", pat("av", "RWW"),
			[]trace.Step{st("g1", ld, "x#1"), st("g2", trace.Write, "x#1"), st("g1", so, "x#1")}, []int{2}, false, nil},
		{"asv-10, the unit's first store silent", pat("asv", "asv-10"),
			[]trace.Step{st("g1", so, "a#1"), st("g2", ld, "b#1"), st("g2", ld, "a#1"), st("g1", so, "b#1")}, []int{1}, false, []int{0}},
		{"asv-10, the unit's second store silent", pat("asv", "asv-10"),
			[]trace.Step{st("g1", so, "a#1"), st("g2", ld, "b#1"), st("g2", ld, "a#1"), st("g1", so, "b#1")}, []int{4}, false, []int{3}},
		{"asv-10, nothing silent", pat("asv", "asv-10"),
			[]trace.Step{st("g1", so, "a#1"), st("g2", ld, "b#1"), st("g2", ld, "a#1"), st("g1", so, "b#1")}, nil, false, nil},
		{"RWW explored", pat("av", "RWW"),
			[]trace.Step{st("g1", ld, "x#1"), st("g2", so, "x#1"), st("g1", so, "x#1")}, []int{2}, true, nil},
		{"a race", pat("race", "WW"),
			[]trace.Step{st("g1", so, "x#1"), st("g2", so, "x#1")}, []int{1}, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var anom []int
			for i := range c.steps {
				anom = append(anom, i)
			}
			f := Finding{
				Anomaly:  predict.Anomaly{Pattern: c.p},
				Schedule: &trace.Schedule{Pattern: c.p.ID(), Steps: c.steps, Anomaly: anom},
				Verdict:  replay.Verdict{Verdict: replay.Reproduced, Passed: true, Silent: c.silent, Explored: c.explored},
			}
			if got := f.SilentStores(); !slices.Equal(got, c.want) {
				t.Fatalf("SilentStores = %v, want %v", got, c.want)
			}
			if c.p.Kind != "race" && f.needsJudging() != (c.want == nil) {
				t.Fatalf("needsJudging = %v with silent stores %v", f.needsJudging(), c.want)
			}
		})
	}
}
