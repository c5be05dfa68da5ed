package check

import (
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/static/depend"
)

// TestWithoutEffect: a reproduced race counts; a reproduced atomicity or
// atomic-set violation counts when its replay fails or panics (otherwise
// than the recorded run did), or when the interleaving changes a value
// its unit uses (Dependence), unless it crosses a re-check under a lock
// or is of an acting pattern; a generated driver's race counts when its
// type is meant for concurrent use, and it shows an effect or holds a lock
// on one side; its other findings need an effect, on such a type too. Two
// closes of one channel (race/close-close) need an effect as well.
func TestWithoutEffect(t *testing.T) {
	race := &pattern.Pattern{Kind: "race", Name: "RW", Adjacent: true}
	av := &pattern.Pattern{Kind: "av", Name: "RWW"}
	rrw := &pattern.Pattern{Kind: "av", Name: "RRW", Acting: true}
	ww := []pattern.Access{pattern.W, pattern.W}
	cc := &pattern.Pattern{Kind: "race", Name: "close-close", Adjacent: true, Chan: true, T: []int{0, 1}, SV: []int{0, 0}, AR: []int{0, 1}, AT: ww}
	sc := &pattern.Pattern{Kind: "race", Name: "send-close", Adjacent: true, Chan: true, T: []int{0, 1}, SV: []int{0, 0}, AR: []int{0, 1}, AT: []pattern.Access{pattern.R, pattern.W}}
	wwRace := &pattern.Pattern{Kind: "race", Name: "WW", Adjacent: true, T: []int{0, 1}, SV: []int{0, 0}, AR: []int{0, 1}, AT: ww}
	mk := func(p *pattern.Pattern, verdict string, passed, panicked bool) Finding {
		return Finding{
			Anomaly: predict.Anomaly{Pattern: p},
			Verdict: replay.Verdict{Verdict: verdict, Passed: passed, Panicked: panicked},
		}
	}
	dep := func(f Finding) Finding {
		f.Dependence = "check-then-act: the value read at a.go:3 decides the write at a.go:5"
		return f
	}
	recheck := func(f Finding) Finding {
		f.Anomaly.Split, f.Anomaly.Recheck = "a.go:4", true
		return f
	}
	drv := func(f Finding) Finding {
		f.Driver = "Publish and Publish"
		return f
	}
	meant := func(f Finding) Finding {
		f.DriverType, f.DriverMeant = "Bus", "it holds a sync.Mutex"
		return f
	}
	locked := func(f Finding) Finding {
		// g2's write holds L; g1's read does not.
		f.Schedule = &trace.Schedule{Steps: []trace.Step{
			{G: "g1", Op: trace.Lock, Obj: "L"}, {G: "g1", Op: trace.Unlock, Obj: "L"},
			{G: "g1", Op: trace.Read, Obj: "x"}, {G: "g2", Op: trace.Lock, Obj: "L"}, {G: "g2", Op: trace.Write, Obj: "x"},
		}, Anomaly: []int{2, 4}}
		return f
	}
	atomicWrite := func(f Finding) Finding {
		// g2's write is atomic; g1's read is plain (simonfxr/pubsub's
		// Subscription.flags).
		f.Schedule = &trace.Schedule{Steps: []trace.Step{
			{G: "g1", Op: trace.Read, Obj: "x"}, {G: "g2", Op: trace.AtomicStore, Obj: "x"},
		}, Anomaly: []int{0, 1}}
		return f
	}
	asBaseline := func(f Finding) Finding {
		f.Verdict.AsBaseline = true
		return f
	}
	unended := func(f Finding) Finding {
		f.Verdict.Unended = true
		return f
	}
	bubble := func(f Finding) Finding {
		f.Verdict.Bubble = true
		return f
	}
	for i, tc := range []struct {
		f        Finding
		reported bool
		without  bool
	}{
		{mk(race, replay.Reproduced, true, false), true, false},
		{mk(av, replay.Reproduced, true, false), false, true},
		{dep(mk(av, replay.Reproduced, true, false)), true, false},
		{mk(av, replay.Reproduced, false, false), true, false},
		{mk(av, replay.Reproduced, false, true), true, false},
		{mk(av, "diverged", true, false), false, false},
		{recheck(dep(mk(av, replay.Reproduced, true, false))), false, true},
		{recheck(mk(av, replay.Reproduced, false, false)), true, false},
		{drv(mk(race, replay.Reproduced, true, false)), false, true},
		{drv(dep(mk(av, replay.Reproduced, true, false))), false, true},
		{meant(drv(mk(av, replay.Reproduced, false, false))), true, false},
		// Of a type not meant for concurrent use, a driver's atomicity
		// violation does not count even with an effect: its calls
		// together break the type's contract (go-memdb's Txn: Abort and
		// Snapshot together panic).
		{drv(mk(av, replay.Reproduced, false, false)), false, true},
		{drv(mk(av, replay.Reproduced, false, true)), false, true},
		// A driver's race counts exactly when the type is meant for
		// concurrent use, effect or not.
		{drv(mk(race, replay.Reproduced, true, true)), false, true},
		// and either shows an effect or one of its accesses holds a lock.
		{meant(drv(mk(race, replay.Reproduced, true, false))), false, true},
		{locked(meant(drv(mk(race, replay.Reproduced, true, false)))), true, false},
		{locked(drv(mk(race, replay.Reproduced, true, false))), false, true},
		// An atomic access says the word is shared as a lock does.
		{atomicWrite(meant(drv(mk(race, replay.Reproduced, true, false)))), true, false},
		{atomicWrite(drv(mk(race, replay.Reproduced, true, false))), false, true},
		{meant(drv(mk(race, replay.Reproduced, false, false))), true, false},
		{locked(meant(drv(mk(race, "diverged", true, false)))), false, false},
		{meant(drv(mk(av, replay.Reproduced, true, false))), false, true},
		// Failing the way the recorded run failed, without the
		// schedule's help, is no effect (errgroup's driver calling Go
		// with a nil function panicked in every run).
		{asBaseline(drv(mk(race, replay.Reproduced, false, true))), false, true},
		{asBaseline(mk(av, replay.Reproduced, false, false)), false, true},
		{asBaseline(dep(mk(av, replay.Reproduced, false, false))), true, false},
		{asBaseline(mk(race, replay.Reproduced, false, true)), true, false},
		// An acting pattern (av/RRW) counts only with an effect.
		{mk(rrw, replay.Reproduced, false, false), true, false},
		{mk(rrw, replay.Reproduced, true, true), true, false},
		{mk(rrw, replay.Reproduced, true, false), false, true},
		{dep(mk(rrw, replay.Reproduced, true, false)), false, true},
		{asBaseline(mk(rrw, replay.Reproduced, false, false)), false, true},
		// Killed at the replay's bound with no verdict of its own: no
		// effect (ants' TestPoolTuneScaleUp, "test fails" with no line).
		{unended(mk(rrw, replay.Reproduced, false, false)), false, true},
		{unended(mk(av, replay.Reproduced, false, false)), false, true},
		{unended(dep(mk(av, replay.Reproduced, false, false))), true, false},
		{unended(drv(mk(av, replay.Reproduced, false, false))), false, true},
		// A replay that held goroutines of a synctest bubble: its
		// failure, panic or hang is no effect (the bubble's fake clock
		// moved where no real run's would: pion/transport's 961 µs of
		// a 1 ms wait); a dependence still counts, a race too.
		{bubble(mk(av, replay.Reproduced, false, false)), false, true},
		{bubble(mk(av, replay.Reproduced, false, true)), false, true},
		{bubble(mk(rrw, replay.Reproduced, false, false)), false, true},
		{bubble(dep(mk(av, replay.Reproduced, false, false))), true, false},
		{bubble(mk(race, replay.Reproduced, false, true)), true, false},
		// Two closes of one channel are no data race (the race detector
		// reports none); the pair counts only with an effect, the second
		// close's panic escaping (go-sse's Joe.Shutdown recovers it). A
		// send against a close stays a race, and so does a plain
		// write-write pair.
		{mk(cc, replay.Reproduced, true, false), false, true},
		{mk(cc, replay.Reproduced, false, true), true, false},
		{mk(cc, replay.Reproduced, false, false), true, false},
		{asBaseline(mk(cc, replay.Reproduced, false, true)), false, true},
		{bubble(mk(cc, replay.Reproduced, false, true)), false, true},
		{drv(mk(cc, replay.Reproduced, false, true)), false, true},
		{meant(drv(mk(cc, replay.Reproduced, false, true))), true, false},
		{mk(cc, "diverged", false, true), false, false},
		{mk(sc, replay.Reproduced, true, false), true, false},
		{mk(wwRace, replay.Reproduced, true, false), true, false},
	} {
		rep := &Report{Findings: []Finding{tc.f}}
		if got := len(rep.Reported()) == 1; got != tc.reported {
			t.Errorf("case %d: reported %v, want %v", i, got, tc.reported)
		}
		if got := tc.f.WithoutEffect(); got != tc.without {
			t.Errorf("case %d: WithoutEffect %v, want %v", i, got, tc.without)
		}
	}
}

// TestGroupActing: the av/RWW and the av/RRW of one check-then-act whose
// replays failed the test alike are one report, led by the av/RWW (not
// acting) even where the av/RRW's site comes first in the source; a lone
// av/RRW leads its own group.
func TestGroupActing(t *testing.T) {
	pats, _ := pattern.Builtin("av")
	byName := map[string]*pattern.Pattern{}
	for _, p := range pats {
		byName[p.Name] = p
	}
	mk := func(name, test string, sites ...string) Finding {
		return Finding{
			Package: "reg", Test: test,
			Anomaly: predict.Anomaly{Pattern: byName[name], Events: make([]int32, len(sites)), Sites: sites, Key: name + sites[0]},
			Verdict: replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: reg_test.go:22: registered 2 times, want 1"},
		}
	}
	fs := []Finding{
		mk("RRW", "TestRegister", "reg/reg.go:17:29", "reg/reg.go:17:29", "reg/reg.go:18:19"),
		mk("RWW", "TestRegister", "reg/reg.go:19:5", "reg/reg.go:18:19", "reg/reg.go:18:19"),
		mk("RRW", "TestOther", "reg/reg.go:17:29", "reg/reg.go:17:29", "reg/reg.go:18:19"),
	}
	group(fs)
	if fs[1].Lead != "" {
		t.Errorf("av/RWW: lead %q, want none (it leads)", fs[1].Lead)
	}
	if fs[0].Lead != "reg/reg.go:19:5" {
		t.Errorf("av/RRW: lead %q, want the av/RWW's site reg/reg.go:19:5", fs[0].Lead)
	}
	if fs[2].Lead != "" {
		t.Errorf("av/RRW of another test: lead %q, want none", fs[2].Lead)
	}
}

// TestGroupKindOrder: an av and an asv over the same sites and accesses
// (one key, as a user's pattern file repeating a built-in shape gives)
// whose replays failed alike are one report led by the av, in either
// order of the findings: not by which replay came first.
func TestGroupKindOrder(t *testing.T) {
	av, _ := pattern.Builtin("av")
	asv, _ := pattern.Builtin("asv")
	pick := func(pats []*pattern.Pattern, id string) *pattern.Pattern {
		for _, p := range pats {
			if p.ID() == id {
				return p
			}
		}
		t.Fatalf("no pattern %s", id)
		return nil
	}
	sites := []string{"d/drain.go:29:21", "d/drain.go:52:16", "d/drain.go:38:30"}
	mk := func(p *pattern.Pattern) Finding {
		return Finding{
			Package: "d", Test: "TestWrite",
			Anomaly: predict.Anomaly{Pattern: p, Events: make([]int32, 3), Sites: sites, Key: pattern.Key(p, sites)},
			Verdict: replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: drain_test.go:34: a write is pending"},
		}
	}
	rwr, asv2 := pick(av, "av/RWR"), pick(asv, "asv/asv-2")
	for _, fs := range [][]Finding{{mk(rwr), mk(asv2)}, {mk(asv2), mk(rwr)}} {
		group(fs)
		for _, f := range fs {
			if lead := f.Lead == ""; lead != (f.Anomaly.Pattern.Kind == "av") {
				t.Errorf("%s leads: %v; want the av to lead, in either order", f.Anomaly.Pattern.ID(), lead)
			}
		}
	}
}

// TestGroupTransitive: findings that share an effect or a dependence's
// site pair with a finding of one bug are of that bug, transitively, and
// the bug has one lead, which counts the others (Grouped), whatever the
// order the replays gave them in. The asv at cache.go:20 has the lead
// effect's failure and the dependence of the av at cache.go:30: the av
// leads all three (fewest events), not the asv (the first in the source
// of the effect's group), which a member of a group would lead unseen.
// Another test's failure, and a failure at another place of one test,
// are other bugs; a race and a violation without effect join none. A
// dependence joins its sites' lines, not their columns.
func TestGroupTransitive(t *testing.T) {
	asv, _ := pattern.Builtin("asv")
	av, _ := pattern.Builtin("av")
	race, _ := pattern.Builtin("race")
	pick := func(pats []*pattern.Pattern, id string) *pattern.Pattern {
		for _, p := range pats {
			if p.ID() == id {
				return p
			}
		}
		t.Fatalf("no pattern %s", id)
		return nil
	}
	asv1, rwr, ww := pick(asv, "asv/asv-11"), pick(av, "av/RWR"), pick(race, "race/WW")
	mk := func(p *pattern.Pattern, test, fails string, pair [2]string, sites ...string) Finding {
		f := Finding{
			Package: "cache", Test: test,
			Anomaly: predict.Anomaly{Pattern: p, Events: make([]int32, len(sites)), Sites: sites, Key: pattern.Key(p, sites)},
			Verdict: replay.Verdict{Verdict: replay.Reproduced, Passed: fails == "", Consequence: fails},
		}
		if pair[0] != "" {
			f.Dependence = "check-then-act: the value read at " + pair[0] + " decides the write at " + pair[1]
			f.dependPair = pair
		}
		return f
	}
	const fail = "test fails: cache_test.go:40: 2 loads of key 7, want 1"
	pair := [2]string{"cache/cache.go:30:5", "cache/cache.go:34:3"}
	fs := []Finding{
		mk(asv1, "TestGet", fail, [2]string{}, "cache/cache.go:22:3", "cache/cache.go:50:2", "cache/cache.go:23:3", "cache/cache.go:51:2"),
		mk(asv1, "TestGet", fail, pair, "cache/cache.go:20:3", "cache/cache.go:50:2", "cache/cache.go:21:3", "cache/cache.go:51:2"),
		mk(rwr, "TestSet", "", pair, "cache/cache.go:30:5", "cache/cache.go:60:2", "cache/cache.go:34:3"),
		// The same failure's text with other numbers, at another place
		// of TestGet, and the same place in TestOther.
		mk(asv1, "TestGet", "test fails: cache_test.go:41: 3 loads of key 9, want 1", [2]string{}, "cache/cache.go:24:3", "cache/cache.go:50:2", "cache/cache.go:25:3", "cache/cache.go:51:2"),
		mk(asv1, "TestOther", fail, [2]string{}, "cache/cache.go:26:3", "cache/cache.go:50:2", "cache/cache.go:27:3", "cache/cache.go:51:2"),
		mk(ww, "TestGet", fail, [2]string{}, "cache/cache.go:50:2", "cache/cache.go:50:2"),
		// Without effect or dependence: no bug to group.
		mk(rwr, "TestGet", "", [2]string{}, "cache/cache.go:70:5", "cache/cache.go:60:2", "cache/cache.go:71:3"),
		// The pair's read at another column of its line, in another
		// test: the same dependence as its message says it; another
		// line's read is another.
		mk(rwr, "TestPut", "", [2]string{"cache/cache.go:30:9", "cache/cache.go:34:3"}, "cache/cache.go:30:9", "cache/cache.go:60:2", "cache/cache.go:34:3"),
		mk(rwr, "TestPut", "", [2]string{"cache/cache.go:31:9", "cache/cache.go:34:3"}, "cache/cache.go:31:9", "cache/cache.go:60:2", "cache/cache.go:34:3"),
	}
	want := []struct {
		lead    string
		grouped int
	}{{"cache/cache.go:30:5", 0}, {"cache/cache.go:30:5", 0}, {"", 3}, {"", 0}, {"", 0}, {"", 0}, {"", 0}, {"cache/cache.go:30:5", 0}, {"", 0}}
	// Every order of the findings gives the same leads and counts.
	perm := []int{0, 1, 2, 3, 4, 5, 6, 7, 8}
	for n := 0; n < 40; n++ {
		in := make([]Finding, len(fs))
		for k, i := range perm {
			in[k] = fs[i]
		}
		group(in)
		for k, i := range perm {
			if in[k].Lead != want[i].lead || in[k].Grouped != want[i].grouped {
				t.Errorf("order %v: finding %d (%s at %s): lead %q, grouped %d; want %q, %d",
					perm, i, in[k].Anomaly.Pattern.ID(), in[k].Anomaly.Sites[0], in[k].Lead, in[k].Grouped, want[i].lead, want[i].grouped)
			}
		}
		// The next permutation, rotating and swapping (it need not be
		// every one: 40 orders, among them the reversed ones).
		perm = append(perm[1:], perm[0])
		if n%3 == 0 {
			perm[n%8], perm[n%8+1] = perm[n%8+1], perm[n%8]
		}
	}
}

// TestGroupEffectPair: a finding reported for its effect is judged for
// its dependence's pair too, so that a violation of the same two sites
// whose replay passed joins its bug instead of being reported apart
// (zap's sampler: the av at sampler.go:66 and an asv of the same reset
// fail the test; another asv of that reset, whose replay passed, was a
// second report for the pair :66, :68). The effect's finding keeps its
// effect as its report: no dependence text.
func TestGroupEffectPair(t *testing.T) {
	asv, _ := pattern.Builtin("asv")
	av, _ := pattern.Builtin("av")
	pick := func(pats []*pattern.Pattern, id string) *pattern.Pattern {
		for _, p := range pats {
			if p.ID() == id {
				return p
			}
		}
		t.Fatalf("no pattern %s", id)
		return nil
	}
	rrw, asv12, asv13 := pick(av, "av/RRW"), pick(asv, "asv/asv-12"), pick(asv, "asv/asv-13")
	if !rrw.Acting || asv12.Acting || asv13.Acting {
		t.Fatalf("acting: av/RRW %v, asv-12 %v, asv-13 %v; the test wants only the first", rrw.Acting, asv12.Acting, asv13.Acting)
	}
	const fail = "test fails: sampler_test.go:233: Unexpected number of logs: expected: 1250, actual: 1259"
	mk := func(p *pattern.Pattern, fails string, sites ...string) Finding {
		return Finding{
			Package: "zapcore", Test: "TestSamplerConcurrent",
			Anomaly: predict.Anomaly{Pattern: p, Events: make([]int32, len(sites)), Sites: sites, Key: pattern.Key(p, sites)},
			Verdict: replay.Verdict{Verdict: replay.Reproduced, Passed: fails == "", Consequence: fails},
		}
	}
	fs := []Finding{
		mk(rrw, fail, "zapcore/sampler.go:66:30", "zapcore/sampler.go:66:30", "zapcore/sampler.go:74:30"),
		mk(asv12, fail, "zapcore/sampler.go:66:30", "zapcore/sampler.go:71:17", "zapcore/sampler.go:74:30", "zapcore/sampler.go:68:23"),
		mk(asv13, "", "zapcore/sampler.go:66:30", "zapcore/sampler.go:71:17", "zapcore/sampler.go:68:23", "zapcore/sampler.go:74:30"),
		// Another package's finding is not judged with this one's.
		mk(asv13, "", "zapcore/sampler.go:66:30", "zapcore/sampler.go:71:17", "zapcore/sampler.go:68:23", "zapcore/sampler.go:74:30"),
	}
	fs[3].Package = "other"
	todo, pairs := toJudge("zapcore", fs)
	if len(todo) != 1 || todo[0] != 2 || len(pairs) != 1 || pairs[0] != 1 {
		t.Fatalf("toJudge: todo %v, pairs %v; want [2], [1] (the acting av is not judged, nor another package's)", todo, pairs)
	}
	// Both asvs' dependence joins the read at :66 and the one at :68.
	judged := 0
	judgeAll(fs, todo, pairs, func(f *Finding) (depend.Verdict, bool) {
		judged++
		return depend.Verdict{Holds: true, Pair: [2]string{"zapcore/sampler.go:66:30", "zapcore/sampler.go:68:23"}}, true
	})
	if judged != 2 {
		t.Errorf("judged %d findings, want 2", judged)
	}
	if fs[1].Dependence != "" || fs[2].Dependence == "" {
		t.Errorf("dependence: effect's %q, the passing one's %q; want none and one", fs[1].Dependence, fs[2].Dependence)
	}
	group(fs[:3])
	if fs[0].Lead != "" || fs[0].Grouped != 2 || fs[1].Lead != fs[0].Anomaly.Sites[0] || fs[2].Lead != fs[0].Anomaly.Sites[0] {
		t.Errorf("leads %q %q %q, grouped %d; want the av to lead both asvs", fs[0].Lead, fs[1].Lead, fs[2].Lead, fs[0].Grouped)
	}
	var shown int
	for i := range fs[:3] {
		if fs[i].Lead == "" && !fs[i].WithoutEffect() {
			shown++
		}
	}
	if shown != 1 {
		t.Errorf("%d findings shown by default, want 1", shown)
	}
}

// TestNeedsJudgingUnitWaits: a failing av whose controls showed its unit
// waiting on the other goroutines (unitWaits, logrus's writer_test.go:53)
// has no effect and is not judged for dependence either: it is no unit.
// Any other control leaves the dependence criterion to decide.
func TestNeedsJudgingUnitWaits(t *testing.T) {
	av := &pattern.Pattern{Kind: "av", Name: "WRW"}
	f := Finding{Anomaly: predict.Anomaly{Pattern: av}, Verdict: replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: x_test.go:9: 9 lines, want 10"}}
	if f.needsJudging() {
		t.Errorf("a failing av with no control needs no judging (its effect reports it)")
	}
	f.Control = "a serial order passes, and so does the same schedule replayed again"
	if f.Effect() || !f.needsJudging() {
		t.Errorf("controlled otherwise: Effect %v, needsJudging %v; want false, true", f.Effect(), f.needsJudging())
	}
	f.Control = unitWaits
	if f.Effect() || f.needsJudging() {
		t.Errorf("unit waits: Effect %v, needsJudging %v; want false, false", f.Effect(), f.needsJudging())
	}
}

// TestGroupSameLine: findings reported at one line are one report, also
// when neither shows an effect and their dependences join other lines
// (pion's duplication_filter.go:299 asv, each instance through another
// read of the router's queue); a finding at another line, or of another
// test, stays apart.
func TestGroupSameLine(t *testing.T) {
	asv, _ := pattern.Builtin("asv")
	p := asv[0]
	mk := func(pair [2]string, sites ...string) Finding {
		f := Finding{
			Package: "vnet", Test: "TestDuplicationFilterBucketCoalescing",
			Anomaly: predict.Anomaly{Pattern: p, Events: make([]int32, len(sites)), Sites: sites, Key: strings.Join(sites, " ")},
			Verdict: replay.Verdict{Verdict: replay.Reproduced, Passed: true},
		}
		f.Dependence = "inconsistent snapshot"
		f.dependPair = pair
		return f
	}
	fs := []Finding{
		mk([2]string{"vnet/chunk_queue.go:64:2", "vnet/duplication_filter.go:268:5"}, "vnet/duplication_filter.go:299:3", "vnet/chunk_queue.go:64:2", "vnet/duplication_filter.go:268:5", "vnet/chunk_queue.go:70:2"),
		mk([2]string{"vnet/chunk_queue.go:68:2", "vnet/duplication_filter.go:268:5"}, "vnet/duplication_filter.go:299:9", "vnet/chunk_queue.go:68:2", "vnet/duplication_filter.go:268:5", "vnet/chunk_queue.go:70:2"),
		mk([2]string{"vnet/chunk_queue.go:49:2", "vnet/duplication_filter.go:268:5"}, "vnet/duplication_filter.go:301:3", "vnet/chunk_queue.go:49:2", "vnet/duplication_filter.go:268:5", "vnet/chunk_queue.go:70:2"),
		mk([2]string{"vnet/chunk_queue.go:53:2", "vnet/duplication_filter.go:268:5"}, "vnet/duplication_filter.go:299:3", "vnet/chunk_queue.go:53:2", "vnet/duplication_filter.go:268:5", "vnet/chunk_queue.go:70:2"),
	}
	fs[3].Test = "TestOther"
	for i := range fs {
		if fs[i].WithoutEffect() || !fs[i].Reproduced() {
			t.Fatalf("finding %d is not reported by default: the test builds the wrong findings", i)
		}
	}
	group(fs)
	if fs[0].Lead != "" || fs[1].Lead != fs[0].Anomaly.Sites[0] || fs[0].Grouped != 1 {
		t.Errorf("leads %q %q, grouped %d; want the first to lead the second (one line)", fs[0].Lead, fs[1].Lead, fs[0].Grouped)
	}
	if fs[2].Lead != "" || fs[3].Lead != "" {
		t.Errorf("the findings at another line and of another test were grouped under %q, %q", fs[2].Lead, fs[3].Lead)
	}
}

// TestGroupControlledFailure: a finding reported for its dependence
// whose replay failed the test as the effect's findings did, its own
// effect withdrawn by a control, is of their bug (failedAlike), whatever
// order the findings come in. These are retryloop's findings of the run
// that reported retry.go:41 beside :32: the av/WWR's alone repeat passed,
// and its stale read-back was a second report. The av/RWR at the same
// sites, whose effect ties it too (TestGroupSameSites), is left out: the
// failure alone must. Its failure ties it only to a finding with that
// effect: alone, or failing otherwise, it stays its own report.
func TestGroupControlledFailure(t *testing.T) {
	av, _ := pattern.Builtin("av")
	pick := func(id string) *pattern.Pattern {
		for _, p := range av {
			if p.ID() == id {
				return p
			}
		}
		t.Fatalf("no pattern %s", id)
		return nil
	}
	const (
		fail  = "test fails: retry_test.go:38: two failures tripped the breaker 2 times, want at most 1"
		alone = "its schedule, replayed again with no other process of the package running, passes: the failure came from another of pecanvet's processes running beside it (a fixed file or port the tests share), not the interleaving"
		free  = "the same schedule passes when the goroutines it names no step of run free instead of waiting for its end: the failure follows their hold, not the interleaving"
	)
	mk := func(id, control string, sites ...string) Finding {
		p := pick(id)
		return Finding{
			Package: "subjects/retryloop", Test: "TestShared",
			Anomaly: predict.Anomaly{Pattern: p, Events: make([]int32, len(sites)), Sites: sites, Key: pattern.Key(p, sites)},
			Verdict: replay.Verdict{Verdict: replay.Reproduced, Consequence: fail},
			Control: control,
		}
	}
	stale := func(f Finding) Finding {
		f.Dependence = "stale read-back: the value read back at retry.go:45 is another goroutine's, not the unit's own write at retry.go:41, and it is used at retry.go:45"
		f.dependPair = [2]string{"retryloop/retry.go:41:4", "retryloop/retry.go:45:7"}
		return f
	}
	fs := []Finding{
		mk("av/RWR", "", "retryloop/retry.go:32:7", "retryloop/retry.go:41:4", "retryloop/retry.go:41:4"),
		mk("av/RWR", "", "retryloop/retry.go:32:7", "retryloop/retry.go:41:4", "retryloop/retry.go:45:7"),
		mk("av/RWW", free, "retryloop/retry.go:32:7", "retryloop/retry.go:41:4", "retryloop/retry.go:41:4"),
		stale(mk("av/WWR", alone, "retryloop/retry.go:41:4", "retryloop/retry.go:41:4", "retryloop/retry.go:45:7")),
	}
	if !fs[2].WithoutEffect() || fs[3].WithoutEffect() || fs[3].Effect() {
		t.Fatalf("the av/RWW must be without effect, the av/WWR reported for its dependence alone")
	}
	want := []struct {
		lead    string
		grouped int
	}{{"retryloop/retry.go:41:4", 0}, {"retryloop/retry.go:41:4", 0}, {"", 0}, {"", 2}}
	perm := []int{0, 1, 2, 3}
	for n := 0; n < 20; n++ {
		in := make([]Finding, len(fs))
		for k, i := range perm {
			in[k] = fs[i]
		}
		group(in)
		for k, i := range perm {
			if in[k].Lead != want[i].lead || in[k].Grouped != want[i].grouped {
				t.Errorf("order %v: finding %d (%s at %s): lead %q, grouped %d; want %q, %d",
					perm, i, in[k].Anomaly.Pattern.ID(), in[k].Anomaly.Sites[0], in[k].Lead, in[k].Grouped, want[i].lead, want[i].grouped)
			}
		}
		perm = append(perm[1:], perm[0])
		if n%2 == 0 {
			perm[n%3], perm[n%3+1] = perm[n%3+1], perm[n%3]
		}
	}
	// Alone, or failing otherwise than the effect's findings, it is its
	// own report; and two such findings with no effect behind them are
	// two.
	other := stale(mk("av/WWR", alone, "retryloop/retry.go:41:4", "retryloop/retry.go:41:4", "retryloop/retry.go:45:7"))
	other.Verdict.Consequence = "test fails: retry_test.go:38: the breaker never tripped"
	for _, fs := range [][]Finding{
		{fs[3]},
		{fs[0], other},
	} {
		group(fs)
		if f := fs[len(fs)-1]; f.Lead != "" {
			t.Errorf("%s failing %q: lead %q, want none", f.Anomaly.Pattern.ID(), f.Verdict.Consequence, f.Lead)
		}
	}
	timing := func(site string) Finding {
		f := mk("av/WWR", alone, site, "retryloop/retry.go:41:4", "retryloop/retry.go:45:7")
		f.Dependence = "check-then-act"
		f.dependPair = [2]string{site, "retryloop/retry.go:60:1"}
		return f
	}
	two := []Finding{timing("retryloop/retry.go:50:1"), timing("retryloop/retry.go:52:1")}
	group(two)
	if two[0].Lead != "" || two[1].Lead != "" {
		t.Errorf("two controlled failures with no effect behind them grouped: leads %q, %q", two[0].Lead, two[1].Lead)
	}
}

// TestGroupSameSites: findings of one test at the same sites, of the same
// objects, in the same goroutines and units, are one bug whatever their
// patterns (sitesKey), so a sibling's effect holds them together when
// one's replay passed. These are retryloop's findings of the other run
// that reported retry.go:41 beside :32: the av/WWR's replay passed, and
// its stale read-back was a second report. Another test's, another
// object's, or other sites' finding stays apart.
func TestGroupSameSites(t *testing.T) {
	av, _ := pattern.Builtin("av")
	pick := func(id string) *pattern.Pattern {
		for _, p := range av {
			if p.ID() == id {
				return p
			}
		}
		t.Fatalf("no pattern %s", id)
		return nil
	}
	const fail = "test fails: retry_test.go:38: two failures tripped the breaker 2 times, want at most 1"
	mk := func(id, fails string, sites ...string) Finding {
		p := pick(id)
		return Finding{
			Package: "subjects/retryloop", Test: "TestShared",
			Anomaly: predict.Anomaly{Pattern: p, Events: make([]int32, len(sites)), Sites: sites, Key: pattern.Key(p, sites)},
			Verdict: replay.Verdict{Verdict: replay.Reproduced, Passed: fails == "", Consequence: fails},
			Objects: []string{"Breaker.recent#1", "Breaker.recent#1", "Breaker.recent#1"},
		}
	}
	stale := func(f Finding) Finding {
		f.Dependence = "stale read-back: the value read back at retry.go:45 is another goroutine's, not the unit's own write at retry.go:41, and it is used at retry.go:45"
		f.dependPair = [2]string{"retryloop/retry.go:41:4", "retryloop/retry.go:45:7"}
		return f
	}
	fs := []Finding{
		mk("av/RWR", fail, "retryloop/retry.go:32:7", "retryloop/retry.go:41:4", "retryloop/retry.go:41:4"),
		mk("av/RWR", fail, "retryloop/retry.go:32:7", "retryloop/retry.go:41:4", "retryloop/retry.go:45:7"),
		mk("av/RWR", fail, "retryloop/retry.go:41:4", "retryloop/retry.go:41:4", "retryloop/retry.go:45:7"),
		mk("av/RWW", fail, "retryloop/retry.go:32:7", "retryloop/retry.go:41:4", "retryloop/retry.go:41:4"),
		stale(mk("av/WWR", "", "retryloop/retry.go:41:4", "retryloop/retry.go:41:4", "retryloop/retry.go:45:7")),
	}
	want := []struct {
		lead    string
		grouped int
	}{{"retryloop/retry.go:41:4", 0}, {"retryloop/retry.go:41:4", 0}, {"retryloop/retry.go:41:4", 0}, {"retryloop/retry.go:41:4", 0}, {"", 4}}
	perm := []int{0, 1, 2, 3, 4}
	for n := 0; n < 20; n++ {
		in := make([]Finding, len(fs))
		for k, i := range perm {
			in[k] = fs[i]
		}
		group(in)
		for k, i := range perm {
			if in[k].Lead != want[i].lead || in[k].Grouped != want[i].grouped {
				t.Errorf("order %v: finding %d (%s at %s): lead %q, grouped %d; want %q, %d",
					perm, i, in[k].Anomaly.Pattern.ID(), in[k].Anomaly.Sites[0], in[k].Lead, in[k].Grouped, want[i].lead, want[i].grouped)
			}
		}
		perm = append(perm[1:], perm[0])
		if n%2 == 0 {
			perm[n%4], perm[n%4+1] = perm[n%4+1], perm[n%4]
		}
	}
	otherTest := stale(mk("av/WWR", "", "retryloop/retry.go:41:4", "retryloop/retry.go:41:4", "retryloop/retry.go:45:7"))
	otherTest.Test = "TestOther"
	otherObj := stale(mk("av/WWR", "", "retryloop/retry.go:41:4", "retryloop/retry.go:41:4", "retryloop/retry.go:45:7"))
	otherObj.Objects = []string{"Breaker.trips#1", "Breaker.trips#1", "Breaker.trips#1"}
	otherSites := stale(mk("av/WWR", "", "retryloop/retry.go:41:4", "retryloop/retry.go:41:4", "retryloop/retry.go:45:9"))
	for _, f := range []Finding{otherTest, otherObj, otherSites} {
		in := []Finding{mk("av/RWR", fail, "retryloop/retry.go:41:4", "retryloop/retry.go:41:4", "retryloop/retry.go:45:7"), f}
		group(in)
		if in[1].Lead != "" || in[0].Lead != "" {
			t.Errorf("%s of %s, %v at %v: grouped with the RWR (leads %q, %q)", f.Anomaly.Pattern.ID(), f.Test, f.Objects, f.Anomaly.Sites, in[0].Lead, in[1].Lead)
		}
	}
}
