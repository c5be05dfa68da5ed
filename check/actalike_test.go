package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// TestJudgeActing: judgeDependence takes the effect of an acting
// violation whose act is limiter's LoadOrStore, with its loaded path
// alike the hit's, for not the interleaving's (depend.ActAlike: the run
// is one where the other goroutine's load came after the store), and
// keeps it when the loaded path increments the goroutine's own new
// counter (static/depend/testdata/src/actalike).
func TestJudgeActing(t *testing.T) {
	loaded, lines := loadDependSrc(t, "actalike")
	// at is the site of the call after name in function fn (on the
	// first line holding it after fn's declaration), decl fn's own.
	site := func(fn, name string, decl bool) string {
		in := false
		for i, l := range lines {
			if strings.HasPrefix(l, "func (cache *Cache) "+fn+"(") {
				if decl {
					return fmt.Sprintf("actalike/actalike.go:%d:%d", i+1, strings.Index(l, " "+fn+"(")+2)
				}
				in = true
				continue
			}
			if in && strings.Contains(l, name+"(") {
				return fmt.Sprintf("actalike/actalike.go:%d:%d", i+1, strings.Index(l, name+"(")+len(name)+1)
			}
		}
		t.Fatalf("no %s in %s", name, fn)
		return ""
	}
	rrw := pattern.MustParse("av/RRW atomic acting T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-r-w")[0]
	finding := func(fn string) Finding {
		inc := predict.Frame{Begin: 1, Site: site(fn, "", true)}
		ld := predict.Frame{Begin: 2, Site: site("Load", "", true)}
		los := predict.Frame{Begin: 3, Site: site("LoadOrStore", "", true)}
		load, act := site("Load", "Load", false), site("LoadOrStore", "LoadOrStore", false)
		return Finding{
			Package: "dep/actalike",
			Test:    "TestIncrement",
			Anomaly: predict.Anomaly{
				Pattern: rrw,
				Events:  []int32{0, 1, 2},
				Sites:   []string{load, load, act},
				Frames:  [][]predict.Frame{{inc, ld}, {{Begin: 11, Site: inc.Site}, {Begin: 12, Site: ld.Site}}, {inc, los}},
				Keys:    nil, // as the recorder leaves them for sync.Map (its pairs are variables of their own)
			},
			Schedule: &trace.Schedule{
				Steps: []trace.Step{
					{G: "g1", Op: trace.AtomicLoad, Obj: "m", Site: load, N: 1, MapKey: 7},
					{G: "g2", Op: trace.AtomicLoad, Obj: "m", Site: load, N: 1, MapKey: 7},
					{G: "g1", Op: trace.AtomicRMW, Obj: "m", Site: act, N: 1, MapKey: 7},
				},
				Anomaly: []int{0, 1, 2},
			},
			Verdict: replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: cache_test.go:79: expected: 11674750, actual: 11674315"},
		}
	}
	fs := []Finding{finding("Increment"), finding("IncrementOwn")}
	if !fs[0].Effect() || !fs[1].Effect() {
		t.Fatal("the findings have no effect to judge")
	}
	judgeDependence(loaded, "dep/actalike", fs, &Report{})
	if fs[0].Control != actAlike || fs[0].Effect() || !fs[0].WithoutEffect() {
		t.Errorf("limiter's Increment: control %q, effect %v: want its failure taken for not the interleaving's", fs[0].Control, fs[0].Effect())
	}
	if fs[1].Control != "" || !fs[1].Effect() {
		t.Errorf("IncrementOwn: control %q, effect %v: want its failure kept", fs[1].Control, fs[1].Effect())
	}
}
