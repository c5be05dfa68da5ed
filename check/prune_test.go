package check

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"maps"
	"math/rand"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// stepOf parses "g op @site" (n=1, object o#1: an anomaly step needs one).
func stepOf(s string) trace.Step {
	f := strings.Fields(s)
	op, _ := trace.ParseOp(f[1])
	return trace.Step{G: f[0], Op: op, Obj: "o#1", Site: strings.TrimPrefix(f[2], "@"), N: 1}
}

// schedOf is a schedule of steps "g op @site", with anomaly steps at.
func schedOf(at []int, steps ...string) *trace.Schedule {
	s := &trace.Schedule{Pattern: "race/WW", Anomaly: at}
	for _, st := range steps {
		s.Steps = append(s.Steps, stepOf(st))
	}
	return s
}

// predOf is a prediction of s, in memory or, with file, in a file as
// check writes them.
func predOf(t *testing.T, s *trace.Schedule, file bool) prediction {
	if !file {
		return prediction{s: s}
	}
	f, err := os.CreateTemp(t.TempDir(), "*.schedule")
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	s.WriteTo(io.MultiWriter(f, h))
	f.Close()
	p := prediction{file: f.Name(), steps: len(s.Steps)}
	h.Sum(p.sum[:0]) // as writePrediction does: the queue skips equal sums
	return p
}

var deadlock3 = replay.Verdict{Verdict: replay.Deadlock, Step: 3, Message: "every goroutine waits; step 3 cannot come",
	Waiting: []string{"g3 waits at g3 read x#1 @w n=1", "g2 blocks in chan receive at a.go:1"}}

// TestSharesFailure: which schedules replay as an earlier one that failed
// at its step k did, up to there. Above all, one that shares fewer than k
// steps with it does not: the step it fails at may be the one it changes.
func TestSharesFailure(t *testing.T) {
	// Stuck at step 3 (g1's read @z); g2 still has a step after it, g3
	// waits at its gate with none left.
	f := schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d")
	cases := []struct {
		name string
		s    *trace.Schedule
		v    replay.Verdict // f's verdict; deadlock3 if zero
		want bool
	}{
		{"same steps after too", schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d"), replay.Verdict{}, true},
		{"other order after", schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g4 read @d", "g2 write @c"), replay.Verdict{}, true},
		{"other anomaly after", schedOf([]int{4, 3}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d", "g1 write @e"), replay.Verdict{}, true},
		{"anomaly at the stuck step", schedOf([]int{2, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d"), replay.Verdict{}, true},
		{"a shorter prefix", schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @y", "g2 write @c", "g4 read @d"), replay.Verdict{}, false},
		{"the stuck step moved later", schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g2 write @c", "g1 read @z", "g4 read @d"), replay.Verdict{}, false},
		{"fewer steps than k", schedOf([]int{0, 1}, "g1 write @a", "g2 write @b"), replay.Verdict{}, false},
		{"anomaly step before", schedOf([]int{1, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d"), replay.Verdict{}, false},
		{"a goroutine's next step missing", schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g4 read @d", "g4 write @c"), replay.Verdict{}, false},
		{"a waiting goroutine given its step", schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d", "g3 read @w"), replay.Verdict{}, true},
		{"a waiting goroutine given another step", schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d", "g3 read @v"), replay.Verdict{}, false},
		{"a goroutine not at a gate given a step", schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d", "g5 read @v"), replay.Verdict{}, true},
		// A divergence was found while others still ran: only the same
		// next steps, and the same anomaly owners, carry it.
		{"diverged, same", schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d"), diverged3, true},
		{"diverged, a step more", schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d", "g5 read @v"), diverged3, false},
		{"diverged, other owners", schedOf([]int{3, 3}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d"), diverged3, false},
		{"deadlock, other owners", schedOf([]int{3, 3}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d"), replay.Verdict{}, true},
	}
	for i, c := range cases {
		v := c.v
		if v.Verdict == "" {
			v = deadlock3
		}
		fp, sp := predOf(t, f, i%2 == 0), predOf(t, c.s, i%3 == 0)
		if !failedWithin(v, fp.len()) {
			t.Fatalf("%s: %+v is not a failure within the prefix", c.name, v)
		}
		if got := newFailure(0, fp, v).shares(sp.sig(v.Step)); got != c.want {
			t.Errorf("%s: shares = %v, want %v", c.name, got, c.want)
		}
	}
	// Only final verdicts that the first steps decide are failures.
	for _, v := range []replay.Verdict{
		{Verdict: replay.Deadlock, Step: 3, Message: "nothing moved for 2s; step 3 never came"},
		{Verdict: replay.Diverged, Step: 3, Goroutine: "g1", Expected: "x", Interrupted: true},
		{Verdict: replay.Diverged, Step: 5, Message: "every step had its turn, but the operations of steps 4 never completed"},
		{Verdict: replay.Ended, Step: 3},
		{Verdict: replay.Timeout, Step: 3},
		{Verdict: replay.Reproduced, Step: 5},
		{Verdict: replay.Deadlock, Step: 9},
	} {
		if failedWithin(v, 5) {
			t.Errorf("%+v taken as a failure within the prefix", v)
		}
	}
}

// TestSharesUnforked: under a deadlock at step k, the steps of a
// goroutine that no step up to k forked do not matter (it never began);
// those of one forked within the prefix do, and so does everything under
// a divergence.
func TestSharesUnforked(t *testing.T) {
	fork := func(parent, child string) string { return parent + " fork " + child + " @f.go:1 n=1" }
	// g1 forks g1.1 at step 1; stuck at step 3 (g1.1's read @z); g1 forks
	// g1.2 later, and g1.2's steps hold the anomaly.
	f := &trace.Schedule{Pattern: "race/WW", Anomaly: []int{5, 6}}
	f.Steps = []trace.Step{
		stepOfFork(fork("g1", "g1.1")), stepOf("g1 write @a"), stepOf("g1.1 read @z"),
		stepOf("g1 write @b"), stepOfFork(fork("g1", "g1.2")), stepOf("g1.2 write @c"), stepOf("g1.2 read @d"),
	}
	with := func(tail ...trace.Step) *trace.Schedule {
		s := &trace.Schedule{Pattern: "race/WW", Anomaly: []int{5, 6}}
		s.Steps = append(append(s.Steps, f.Steps[:5]...), tail...)
		return s
	}
	stuck := replay.Verdict{Verdict: replay.Deadlock, Step: 3, Message: "every goroutine waits; step 3 cannot come"}
	cases := []struct {
		name string
		s    *trace.Schedule
		v    replay.Verdict
		want bool
	}{
		{"same", with(f.Steps[5:]...), stuck, true},
		{"the unforked goroutine's steps differ", with(stepOf("g1.2 read @y"), stepOf("g1.2 write @c")), stuck, true},
		{"a goroutine the unforked one forks", with(stepOf("g1.2 write @c"), stepOfFork(fork("g1.2", "g1.2.1")), stepOf("g1.2.1 read @d")), stuck, true},
		{"a forked goroutine's next step differs", func() *trace.Schedule {
			s := with(f.Steps[5:]...)
			s.Steps[3] = stepOf("g1 write @x")
			return s
		}(), stuck, false},
		{"a root given another step", with(append(slices.Clone(f.Steps[5:]), stepOf("g2 read @v"))...), stuck, true},
		{"diverged: the unforked goroutine's steps count", with(stepOf("g1.2 read @y"), stepOf("g1.2 write @c")),
			replay.Verdict{Verdict: replay.Diverged, Step: 3, Goroutine: "g1.1", Expected: "g1.1 read @z n=1", Actual: "g1.1 read @y n=1"}, false},
	}
	for i, c := range cases {
		fp, sp := predOf(t, f, i%2 == 0), predOf(t, c.s, i%3 == 0)
		if got := newFailure(0, fp, c.v).shares(sp.sig(c.v.Step)); got != c.want {
			t.Errorf("%s: shares = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSharesChangedLine: a schedule file's "changed" line (the reads
// that see another write) is no step: two predictions with the same steps
// and other changed reads share a failure, and steps are counted without
// it.
func TestSharesChangedLine(t *testing.T) {
	f := schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d")
	f.Changed = []trace.Change{{Read: 3, Write: 1}}
	s := schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d")
	s.Changed = []trace.Change{{Read: 5, Write: 0, Ahead: true}}
	fp, sp := predOf(t, f, true), predOf(t, s, true)
	if !newFailure(0, fp, deadlock3).shares(sp.sig(deadlock3.Step)) {
		t.Errorf("schedules differing only in their changed reads do not share a failure")
	}
	if g := fp.stepG(1); g != "g1" {
		t.Errorf("stepG(1) = %q, want g1", g)
	}
	if from := fp.anomalyFrom(); from != 3 {
		t.Errorf("anomalyFrom = %d, want 3", from)
	}
	n := 0
	fp.eachStep(func([]int) {}, func(g, text []byte) bool { n++; return true })
	if n != len(f.Steps) {
		t.Errorf("eachStep: %d steps, want %d", n, len(f.Steps))
	}
}

// stepOfFork parses "g fork child @site n=1".
func stepOfFork(s string) trace.Step {
	f := strings.Fields(s)
	return trace.Step{G: f[0], Op: trace.Fork, Obj: f[2], Site: strings.TrimPrefix(f[3], "@"), N: 1}
}

var diverged3 = replay.Verdict{Verdict: replay.Diverged, Step: 3, Goroutine: "g1", Expected: "g1 read @z n=1", Actual: "g1 read @y n=1"}

// TestReplayQueueShorterPrefix: after a replay stuck at step 3, a schedule
// that shares only its first two steps is still replayed (its third step
// is what differs), and one that shares the three is not, and takes no
// place among -maxreplays: the prediction after it is replayed.
func TestReplayQueueShorterPrefix(t *testing.T) {
	pats, _ := pattern.Builtin("race")
	ss := []*trace.Schedule{
		schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g3 read @d"),
		schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g3 read @d", "g2 write @c", "g1 read @z"),
		schedOf([]int{4, 3}, "g1 write @a", "g2 write @b", "g1 read @z", "g3 read @d", "g2 write @c"),
		schedOf([]int{3, 4}, "g2 write @b", "g1 write @a", "g1 read @z", "g2 write @c", "g3 read @d"),
	}
	var preds []prediction
	for i, s := range ss {
		p := predOf(t, s, i%2 == 1)
		p.a = predict.Anomaly{Pattern: pats[0], Key: fmt.Sprint(i), Sites: []string{fmt.Sprint(i)}}
		preds = append(preds, p)
	}
	runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
		if p.stepG(3) == "g1" {
			return replay.Verdict{Verdict: replay.Deadlock, Step: 3, Message: "every goroutine waits; step 3 cannot come"}
		}
		return replay.Verdict{Verdict: replay.Diverged, Step: 4, Goroutine: "g2", Expected: "e", Message: "took another path"}
	}
	defer func() { runReplay = replayRetrying }()
	rep := &Report{}
	skipped := replayBatch(context.Background(), nil, "p", "T", &trace.Trace{}, preds, t.TempDir(),
		time.Now().Add(time.Hour), Options{MaxReplays: 3}, map[string]bool{}, rep)
	var got []string
	for _, f := range rep.Findings {
		got = append(got, fmt.Sprintf("%s:%v", f.Anomaly.Key, f.Inferred))
	}
	if want := "0:false 1:false 2:true 3:false"; strings.Join(got, " ") != want || skipped != 0 {
		t.Fatalf("findings %v, %d skipped; want %s, 0", got, skipped, want)
	}
	if m := rep.Findings[2].Verdict.Message; !strings.HasPrefix(m, "same prefix as replay 1, which failed at step 3: ") {
		t.Errorf("inferred verdict %q", m)
	}
	if rep.Inferred() != 1 {
		t.Errorf("Inferred() = %d", rep.Inferred())
	}
}

// TestReplayQueueSharedFailure: a schedule that begins with the steps an
// earlier replay of its trace failed within is pruned without a replay
// and takes no place among -maxreplays; which ones are, whatever the
// replays' durations, is what the sequential order gives (an earlier
// schedule inferred, or replayed only because it started before the
// failure was known, is no basis). conc's pool tests spent their replays
// on schedules stuck at one step, one after the other.
func TestReplayQueueSharedFailure(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func() { runReplay = replayRetrying }()
	pats, _ := pattern.Builtin("race")
	rng := rand.New(rand.NewSource(3))
	type pred struct {
		prefix string // first step: "bad…" ones deadlock at step 1, "div…" ones diverge there
		swap   bool   // the order of the steps after it
		g4     bool   // g4 has a step after it (none waits at a gate in the deadlocks)
		key    string
		repro  bool
	}
	inferredAny, parallel := false, false
	for round := 0; round < 40; round++ {
		var ps []pred
		for i := 0; i < 5+rng.Intn(20); i++ {
			ps = append(ps, pred{prefix: []string{"bad1", "bad2", "div1", "ok1", "ok2"}[rng.Intn(5)], swap: rng.Intn(2) == 0,
				g4: rng.Intn(3) == 0, key: fmt.Sprint(rng.Intn(6)), repro: rng.Intn(4) == 0})
		}
		limit := 1 + rng.Intn(8)
		var preds []prediction
		idx := map[string]int{}
		text := func(p pred) string { return fmt.Sprint(p.prefix, p.swap, p.g4) }
		for i, p := range ps {
			tail := []string{"g2 write @t", "g3 read @u"}
			if p.swap {
				tail[0], tail[1] = tail[1], tail[0]
			}
			if p.g4 {
				tail = append(tail, "g4 read @v")
			}
			s := schedOf([]int{1, 2}, append([]string{"g1 write @" + p.prefix}, tail...)...)
			pr := predOf(t, s, i%2 == 0)
			pr.a = predict.Anomaly{Pattern: pats[0], Key: p.key, Sites: []string{p.key}}
			preds = append(preds, pr)
			idx[predID(pr)] = i
		}
		verdict := func(i int) replay.Verdict {
			switch {
			case strings.HasPrefix(ps[i].prefix, "bad"):
				return replay.Verdict{Verdict: replay.Deadlock, Step: 1, Message: "every goroutine waits"}
			case strings.HasPrefix(ps[i].prefix, "div"):
				return replay.Verdict{Verdict: replay.Diverged, Step: 1, Goroutine: "g1", Expected: "g1 write @div1 n=1", Message: "took another path"}
			case ps[i].repro:
				return replay.Verdict{Verdict: replay.Reproduced, Step: 3}
			}
			return replay.Verdict{Verdict: replay.Diverged, Step: 3, Goroutine: "g3", Expected: "e", Message: "took another path"}
		}
		// The reference, one after the other.
		var want []string
		seen, ran := map[string]bool{}, map[string]bool{}
		var failed []int
		replays, wantSkipped := 0, 0
		for i, p := range ps {
			if seen[p.key] {
				continue
			}
			if ran[text(p)] {
				continue // the same steps replayed: skipped
			}
			from := -1
			for _, j := range failed {
				f := ps[j]
				// A deadlock carries to a schedule giving a goroutine a
				// step that f gave none (none waited at a gate), not the
				// other way; a divergence only to the same next steps.
				if f.prefix == p.prefix && (f.g4 == p.g4 || strings.HasPrefix(f.prefix, "bad") && p.g4) {
					from = j
					break
				}
			}
			if from >= 0 {
				want = append(want, fmt.Sprintf("%d~%d", i, from))
				continue
			}
			if replays >= limit {
				wantSkipped++
				continue
			}
			replays++
			ran[text(p)] = true
			want = append(want, fmt.Sprint(i))
			switch v := verdict(i); v.Verdict {
			case replay.Reproduced:
				seen[p.key] = true
			case replay.Deadlock:
				failed = append(failed, i)
			default:
				if v.Step == 1 {
					failed = append(failed, i)
				}
			}
		}
		running, peak := 0, 0
		var mu = make(chan struct{}, 1)
		runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
			mu <- struct{}{}
			running++
			peak = max(peak, running)
			d := time.Duration(rng.Intn(3)) * time.Millisecond
			<-mu
			time.Sleep(d)
			mu <- struct{}{}
			running--
			<-mu
			return verdict(idx[predID(p)])
		}
		rep := &Report{}
		skipped := replayBatch(context.Background(), nil, "p", "T", &trace.Trace{}, preds, t.TempDir(),
			time.Now().Add(time.Hour), Options{MaxReplays: limit}, map[string]bool{}, rep)
		var got []string
		for _, f := range rep.Findings {
			i := -1
			if j, ok := idx[f.pred]; ok {
				i = j
			}
			if f.Inferred {
				inferredAny = true
				var j int
				fmt.Sscanf(f.Verdict.Message, "same prefix as replay %d", &j)
				got = append(got, fmt.Sprintf("%d~%d", i, j-1))
				continue
			}
			got = append(got, fmt.Sprint(i))
		}
		if strings.Join(got, " ") != strings.Join(want, " ") || skipped != wantSkipped {
			t.Fatalf("round %d (max %d, %+v):\n got %v, skipped %d\nwant %v, %d", round, limit, ps, got, skipped, want, wantSkipped)
		}
		parallel = parallel || peak > 1
	}
	if !inferredAny {
		t.Error("no schedule was pruned for an earlier one's failure")
	}
	if !parallel {
		t.Error("the replays never ran in parallel")
	}
}

// TestSigFile: the signature read from a schedule file (its lines not
// copied) is the one of the schedule in memory, for every failure step.
func TestSigFile(t *testing.T) {
	for _, s := range []*trace.Schedule{
		schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d"),
		schedOf([]int{1, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d", "g1 write @e"),
		schedOf([]int{0, 1}, "g1 write @a", "g2 write @b"),
	} {
		mem, file := predOf(t, s, false), predOf(t, s, true)
		for k := 1; k <= len(s.Steps)+1; k++ {
			want := mem.sig(k)
			got := file.sig(k)
			if got.ok != want.ok || got.prefix != want.prefix || got.owners != want.owners || !maps.Equal(got.next, want.next) {
				t.Errorf("k=%d: from the file %+v, in memory %+v", k, got, want)
			}
			// With the prefix's sum known (infer), the same but for the
			// forks, which it does not read.
			for _, p := range []prediction{mem, file} {
				after := p.sigAfter(k, want.prefix)
				if after.ok != want.ok || after.prefix != want.prefix || after.owners != want.owners || !maps.Equal(after.next, want.next) {
					t.Errorf("k=%d: sigAfter %+v, sig %+v", k, after, want)
				}
			}
		}
	}
}

// TestPrefixSums: the one-pass prefix sums that infer rules failures out
// with agree with sig: where sig is ok, so is the sum, and it is sig's
// prefix; where the sum is not ok, neither is sig. Read for all failure
// steps at once or one at a time, from a file or from memory.
func TestPrefixSums(t *testing.T) {
	for _, s := range []*trace.Schedule{
		schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d"),
		schedOf([]int{1, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d", "g1 write @e"),
		schedOf([]int{0, 1}, "g1 write @a", "g2 write @b"),
	} {
		var ks []int
		for k := 1; k <= len(s.Steps)+1; k++ {
			ks = append(ks, k)
		}
		for _, file := range []bool{false, true} {
			p := predOf(t, s, file)
			all := p.prefixSums(ks)
			for _, k := range ks {
				one := p.prefixSums([]int{k})[k]
				if one != all[k] {
					t.Errorf("file %v, k=%d: alone %+v, with the others %+v", file, k, one, all[k])
				}
				sg := p.sig(k)
				if sg.ok && (!one.ok || one.sum != sg.prefix) || !one.ok && sg.ok {
					t.Errorf("file %v, k=%d: sum %+v, sig ok %v prefix %x", file, k, one, sg.ok, sg.prefix)
				}
				// As a strict doom reads it.
				if sum, next := p.prefixSum(k); k <= len(s.Steps) && (sum != one.sum || next != one.next) {
					t.Errorf("file %v, k=%d: sum %x next %q, prefixSum %x next %q", file, k, one.sum, one.next, sum, next)
				}
			}
		}
	}
	// Two schedules with the same first two steps: the same sum there
	// (their third steps are other goroutines'), not after.
	a := predOf(t, schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g4 read @d"), true)
	b := predOf(t, schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g2 read @y", "g2 write @c", "g4 read @d"), true)
	sa, sb := a.prefixSums([]int{2, 3}), b.prefixSums([]int{2, 3})
	if sa[2].sum != sb[2].sum || sa[2].next == sb[2].next || sa[3].sum == sb[3].sum {
		t.Errorf("at 2: %x %q, %x %q (want equal sums, other next goroutines); sums at 3: %x, %x (want different)", sa[2].sum, sa[2].next, sb[2].sum, sb[2].next, sa[3].sum, sb[3].sum)
	}
}

// TestReplayQueueAlike: once alikeRuns instances of a combination in a
// trace deadlocked alike with a goroutine waiting outside recorded
// operations (each after its own prefix), its later instances are not
// replayed; instances that deadlock otherwise, another combination's, and
// deadlocks where nothing waits outside are.
func TestReplayQueueAlike(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func() { runReplay = replayRetrying }()
	pats, _ := pattern.Builtin("race")
	// Instance k of a combination: k steps of g1 before the stuck step of
	// g2 (its lock @m), so that no two share a prefix.
	inst := func(key string, k int, stuck string) prediction {
		steps := make([]string, 0, k+3)
		for n := 0; n < k; n++ {
			steps = append(steps, "g1 write @a")
		}
		steps = append(steps, stuck, "g1 read @z"+key, "g2 write @c") // (schedules of two keys differ)
		p := predOf(t, schedOf([]int{k + 1, k + 2}, steps...), k%2 == 0)
		p.a = predict.Anomaly{Pattern: pats[0], Key: key, Sites: []string{key}}
		return p
	}
	var preds []prediction
	for k := 1; k <= 5; k++ {
		preds = append(preds, inst("A", k, "g2 lock @m")) // alike: 2 replayed, 3 not
	}
	for k := 1; k <= 3; k++ {
		preds = append(preds, inst("B", k, "g2 lock @m")) // alike, but waiting at a gate only: all replayed
	}
	preds = append(preds, inst("C", 1, "g2 lock @m"), inst("C", 2, "g2 lock @n"), inst("C", 3, "g2 lock @m"), inst("C", 4, "g2 lock @n")) // two shapes: C4 not replayed (C1 and C3 alike)
	for k := 1; k <= 4; k++ {
		preds = append(preds, inst("D", k, "g2 lock @m")) // g2 itself waits outside, the others elsewhere each time: 2 replayed
	}
	runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
		k := p.len() - 2
		v := replay.Verdict{Verdict: replay.Deadlock, Step: k, Waiting: []string{"g1 waits at g1 read @z" + p.a.Key + " n=1"}}
		if p.a.Key == "B" {
			v.Message = fmt.Sprintf("every goroutine waits; step %d cannot come", k)
			return v
		}
		if p.a.Key == "D" {
			v.Outside = true
			v.Waiting = append(v.Waiting, "g2 select at sem.go:60", fmt.Sprintf("g3 select at pool.go:%d", k))
		} else {
			v.Waiting = append(v.Waiting, fmt.Sprintf("g2.%d select at sem.go:60", k), "g3 chan receive at main.go:14")
		}
		v.Message = fmt.Sprintf("every goroutine waits (for 100ms; only a timer or I/O could still wake g2 select at sem.go:60); step %d cannot come", k)
		return v
	}
	rep, seen := &Report{}, map[string]bool{}
	q := newReplayQueue(context.Background(), nil, "p", time.Now().Add(time.Hour), Options{}, seen)
	q.add("T", &trace.Trace{}, preds, t.TempDir(), 100, replay.Options{})
	q.wait()
	r := q.finish(seen, rep)[0]
	n := map[string]int{}
	for _, f := range rep.Findings {
		n[f.Anomaly.Key]++
	}
	if n["A"] != 2 || n["B"] != 3 || n["C"] != 3 || n["D"] != 2 || r.alike != 6 || r.skipped != 0 {
		t.Errorf("replayed A %d, B %d, C %d, D %d (want 2, 3, 3, 2); %d alike (want 6), %d skipped", n["A"], n["B"], n["C"], n["D"], r.alike, r.skipped)
	}
}

// TestWrongObjectShape: two instances of one combination that touched
// another object at the same two steps (logrus's hooksForLevel reading
// the previous LevelHooks) have one shape, whatever their step numbers,
// goroutines, occurrence counts and object numbers; other sites, another
// relation, or another key of a map (a range's random order) do not.
func TestWrongObjectShape(t *testing.T) {
	msg := func(step, n, obj int, g, site, rel string) string {
		return fmt.Sprintf("steps %d (%s read logrus.LevelHooks#%d @%s n=%d) and %d (g1.1.7.3 write logrus.LevelHooks#%d @entry_test.go:474:6 n=%d) of the anomaly touch %s in the prediction, but logrus.LevelHooks#%d and logrus.LevelHooks#%d in the replay",
			step, g, obj, site, n, step+1, obj, 694+n, rel, obj-1, obj)
	}
	a, okA := wrongObjectShape(msg(350944, 3, 100, "g1.1.7.4", "logger.go:424:23", "the same object"))
	b, okB := wrongObjectShape(msg(351146, 4, 7, "g1.1.9.2", "logger.go:424:23", "the same object"))
	if !okA || !okB || a != b {
		t.Errorf("two instances: %q (%v) and %q (%v), want one shape", a, okA, b, okB)
	}
	if strings.ContainsAny(a, "#") || strings.Contains(a, "n=") || strings.Contains(a, "g1.") || strings.Contains(a, "350944") {
		t.Errorf("shape %q keeps what differs between instances", a)
	}
	if !strings.Contains(a, "@logger.go:424:23") || !strings.Contains(a, "logrus.LevelHooks") {
		t.Errorf("shape %q lost the steps' sites or objects' types", a)
	}
	for _, other := range []string{
		msg(350944, 3, 100, "g1.1.7.4", "logger.go:430:9", "the same object"),
		msg(350944, 3, 100, "g1.1.7.4", "logger.go:424:23", "different objects"),
	} {
		if c, _ := wrongObjectShape(other); c == a {
			t.Errorf("%q: the same shape as another site's or relation's", other)
		}
	}
	key := "steps 4 (g2 read m#1 @a.go:3 n=1) and 5 (g3 write m#1 @a.go:9 n=2) of the anomaly touch one element of the map in the prediction, but two in the replay (another key)"
	if s, ok := wrongObjectShape(key); ok {
		t.Errorf("another key of a map has shape %q", s)
	}
	if s, ok := alikeShape(prediction{}, replay.Verdict{Verdict: replay.WrongObject, Message: msg(9, 1, 2, "g2", "x.go:1:2", "the same object")}); !ok || !strings.HasPrefix(s, "wrong-object ") {
		t.Errorf("alikeShape of a wrong-object verdict: %q, %v", s, ok)
	}
}

// TestAlikeShapeLockedOutside: a deadlock where a reader's RLock queues
// behind a writer waiting in sync.RWMutex.Lock outside recorded
// operations (go-deadlock's RWMutex.Lock, which records its acquisition
// when it returns) has a shape, the same for two instances whatever their
// goroutines and steps; one where every goroutine waits at a gate or in a
// recorded operation has none.
func TestAlikeShapeLockedOutside(t *testing.T) {
	inst := func(k int, writer string) (prediction, replay.Verdict) {
		steps := make([]string, 0, k+2)
		for n := 0; n < k; n++ {
			steps = append(steps, "g1 write @a")
		}
		steps = append(steps, "g2 rlock @m.go:39", "g1 read @z")
		p := predOf(t, schedOf([]int{k + 1, k + 2}, steps...), false)
		v := replay.Verdict{Verdict: replay.Deadlock, Step: k + 1,
			Message: fmt.Sprintf("goroutine g2 blocks in step %d (g2 rlock @m.go:39) and every goroutine waits", k+1),
			Waiting: []string{"g1 waits at g1 read @z n=1", "g2 blocks in RLock (sync.RWMutex.RLock) at m.go:39", "g1 chan receive at main.go:14"}}
		if writer != "" {
			v.Waiting = append(v.Waiting, writer)
		}
		return p, v
	}
	a, okA := alikeShape(inst(3, "g3.1 sync.RWMutex.Lock at m.go:31"))
	b, okB := alikeShape(inst(7, "g3.4 sync.RWMutex.Lock at m.go:31"))
	if !okA || !okB || a != b {
		t.Errorf("two instances with a writer in the lock outside: %q (%v) and %q (%v), want one shape", a, okA, b, okB)
	}
	if !strings.Contains(a, "sync.RWMutex.Lock at m.go:31") {
		t.Errorf("shape %q does not say where the writer waits", a)
	}
	if c, ok := alikeShape(inst(3, "goroutine 40 (not instrumented) sync.Mutex.Lock at dep.go:9")); !ok || c == a {
		t.Errorf("an uninstrumented goroutine in a Mutex's Lock: shape %q, %v (want one of its own)", c, ok)
	}
	if s, ok := alikeShape(inst(3, "")); ok {
		t.Errorf("every goroutine at a gate or in a recorded operation: shape %q", s)
	}
	if s, ok := alikeShape(inst(3, "g3 chan send at m.go:50")); ok {
		t.Errorf("a goroutine outside in a channel send, no quiet bound: shape %q", s)
	}
}

// TestReplayQueueAlikeWrongObject: once alikeRuns instances of a
// combination in a trace touched other objects alike, its later instances
// are not replayed; instances whose wrong objects differ, and those of
// another key of a map, are.
func TestReplayQueueAlikeWrongObject(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func() { runReplay = replayRetrying }()
	pats, _ := pattern.Builtin("race")
	inst := func(key string, k int) prediction { return keyedInst(t, pats[0], key, k, k%2 == 0) }
	var preds []prediction
	for k := 1; k <= 5; k++ {
		preds = append(preds, inst("W", k)) // alike: 2 replayed, 3 not
	}
	for k := 1; k <= 3; k++ {
		preds = append(preds, inst("S", k)) // each at another site: all replayed
	}
	for k := 1; k <= 3; k++ {
		preds = append(preds, inst("K", k)) // another key each time: all replayed
	}
	runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
		k := p.len() - 2
		site := "@r" + p.a.Key
		if p.a.Key == "S" {
			site = fmt.Sprintf("@r%d", k)
		}
		v := replay.Verdict{Verdict: replay.WrongObject, Step: k + 2, Steps: k + 2,
			Message: fmt.Sprintf("steps %d (g2 read T#%d %s n=%d) and %d (g3 write T#%d @w%s n=%d) of the anomaly touch the same object in the prediction, but T#%d and T#%d in the replay", k+1, k, site, k, k+2, k, p.a.Key, k, k-1, k)}
		if p.a.Key == "K" {
			v.Message = fmt.Sprintf("steps %d (g2 read m#1 @rK n=%d) and %d (g3 write m#1 @wK n=%d) of the anomaly touch one element of the map in the prediction, but two in the replay (another key)", k+1, k, k+2, k)
		}
		return v
	}
	rep, seen := &Report{}, map[string]bool{}
	q := newReplayQueue(context.Background(), nil, "p", time.Now().Add(time.Hour), Options{}, seen)
	q.add("T", &trace.Trace{}, preds, t.TempDir(), 100, replay.Options{})
	q.wait()
	r := q.finish(seen, rep)[0]
	if r.alike != 3 || r.skipped != 0 {
		t.Errorf("%d alike (want 3: W3 to W5), %d skipped (want 0)", r.alike, r.skipped)
	}
	n := map[string]int{}
	for _, f := range rep.Findings {
		n[f.Anomaly.Key]++
	}
	if n["W"] != 2 || n["S"] != 3 || n["K"] != 3 {
		t.Errorf("replayed W %d, S %d, K %d (want 2, 3, 3)", n["W"], n["S"], n["K"])
	}
}

// TestReplayQueueWrongObjectRuns: the first instance of a combination
// that touches other objects runs wrongObjectRuns times, the second,
// alike after its first run, once, and the rest not at all (logrus's
// TestEntryLoggerMutationRace: 35 runs of 350,000 steps, now 5).
func TestReplayQueueWrongObjectRuns(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func(f func(context.Context, *testbin.Build, string, string, *trace.Schedule, string, replay.Options) replay.Verdict) {
		replayRun = f
	}(replayRun)
	pats, _ := pattern.Builtin("race")
	var preds []prediction
	for k := 1; k <= 5; k++ {
		steps := make([]string, 0, k+2)
		for n := 0; n < k; n++ {
			steps = append(steps, "g1 write @a")
		}
		steps = append(steps, "g2 read @r", "g3 write @w")
		p := predOf(t, schedOf([]int{k, k + 1}, steps...), false)
		p.a = predict.Anomaly{Pattern: pats[0], Key: "W", Sites: []string{"W"}}
		preds = append(preds, p)
	}
	var mu sync.Mutex
	runs := map[int]int{}
	replayRun = func(_ context.Context, _ *testbin.Build, _, _ string, s *trace.Schedule, _ string, _ replay.Options) replay.Verdict {
		k := len(s.Steps) - 2
		mu.Lock()
		runs[k]++
		mu.Unlock()
		return replay.Verdict{Verdict: replay.WrongObject, Step: k + 2, Steps: k + 2,
			Message: fmt.Sprintf("steps %d (g2 read T#%d @r n=%d) and %d (g3 write T#%d @w n=%d) of the anomaly touch the same object in the prediction, but T#%d and T#%d in the replay", k+1, k, k, k+2, k, k, k-1, k)}
	}
	rep, seen := &Report{}, map[string]bool{}
	q := newReplayQueue(context.Background(), nil, "p", time.Now().Add(time.Hour), Options{}, seen)
	q.add("T", &trace.Trace{}, preds, t.TempDir(), 100, replay.Options{})
	q.wait()
	r := q.finish(seen, rep)[0]
	if runs[1] != wrongObjectRuns || runs[2] != 1 || len(runs) != 2 || r.alike != 3 {
		t.Errorf("runs by instance %v, %d alike; want 1: %d, 2: 1, no others, 3 alike", runs, r.alike, wrongObjectRuns)
	}
}

// TestReplayQueueWrongObjectAcrossTraces: an instance of a combination
// whose earlier instance, in another trace of the queue, touched other
// objects alike after all its runs runs once, not wrongObjectRuns times
// (ants' flood tests: their first wrong objects at worker.go:85/:89 ran
// four times in each test, 15 to 25 s a run); one whose wrong object is
// another's runs them all, and one that reproduces is reproduced. The
// earlier instance counts only once final (an earlier replay of its
// trace, still running, could make it inferred): with a slow replay
// before it in its trace the later trace waits for it, so the runs are
// the same with 1, 2 or 4 workers.
func TestReplayQueueWrongObjectAcrossTraces(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func(f func(context.Context, *testbin.Build, string, string, *trace.Schedule, string, replay.Options) replay.Verdict) {
		replayRun = f
	}(replayRun)
	pats, _ := pattern.Builtin("race")
	inst := func(key string, k int) prediction { return keyedInst(t, pats[0], key, k, false) }
	wrong := func(key string, k int) replay.Verdict {
		return replay.Verdict{Verdict: replay.WrongObject, Step: k + 2, Steps: k + 2,
			Message: fmt.Sprintf("steps %d (g2 read T#%d @r%s n=%d) and %d (g3 write T#%d @w%s n=%d) of the anomaly touch the same object in the prediction, but T#%d and T#%d in the replay", k+1, k, key, k, k+2, k, key, k, k-1, k)}
	}
	for _, workers := range []int{1, 2, 4} {
		var mu sync.Mutex
		runs := map[string]int{}
		replayRun = func(_ context.Context, _ *testbin.Build, _, test string, s *trace.Schedule, _ string, _ replay.Options) replay.Verdict {
			k := len(s.Steps) - 2
			key := strings.TrimPrefix(s.Steps[k].Site, "r")
			mu.Lock()
			runs[fmt.Sprintf("%s/%s%d", test, key, k)]++
			mu.Unlock()
			switch {
			case key == "X":
				// Slow, and no failure within its steps: A's W after it
				// is done before it is final.
				time.Sleep(30 * time.Millisecond)
				return replay.Verdict{Verdict: replay.Diverged, Step: k + 2, Steps: k + 2}
			case test == "D":
				return replay.Verdict{Verdict: replay.Reproduced, Step: k + 2, Steps: k + 2}
			}
			return wrong(key, k)
		}
		rep, seen := &Report{}, map[string]bool{}
		q := newReplayQueue(context.Background(), nil, "p", time.Now().Add(time.Hour), Options{}, seen)
		q.workers = workers
		q.add("A", &trace.Trace{}, []prediction{inst("X", 1), inst("W", 2)}, t.TempDir(), 100, replay.Options{})
		q.add("B", &trace.Trace{}, []prediction{inst("W", 3)}, t.TempDir(), 100, replay.Options{})
		q.add("C", &trace.Trace{}, []prediction{inst("V", 4)}, t.TempDir(), 100, replay.Options{})
		q.add("D", &trace.Trace{}, []prediction{inst("W", 5)}, t.TempDir(), 100, replay.Options{})
		q.wait()
		q.finish(seen, rep)
		want := map[string]int{"A/X1": 1, "A/W2": wrongObjectRuns, "B/W3": 1, "C/V4": wrongObjectRuns, "D/W5": 1}
		if !maps.Equal(runs, want) {
			t.Errorf("%d workers: runs %v, want %v", workers, runs, want)
		}
		verdicts := map[string]string{}
		for _, f := range rep.Findings {
			verdicts[f.Test+"/"+f.Anomaly.Key] = f.Verdict.Verdict
		}
		if verdicts["B/W"] != replay.WrongObject || verdicts["D/W"] != replay.Reproduced {
			t.Errorf("%d workers: verdicts %v, want B/W wrong-object, D/W reproduced", workers, verdicts)
		}
	}
}

// TestReplayQueueWrongObjectAcrossCombinations: an instance whose wrong
// object is the one that an earlier instance of another combination
// sharing its anomaly's two sites showed after all its runs runs once
// (ants' TestPurgePool: six asv-9 combinations at worker.go:85/:89, each
// with a third site of its own, each run four times alike), in its trace
// or another; one whose wrong object is another's, or whose combination
// shares one site only, runs them all; one that reproduces is
// reproduced. The earlier instance counts only once final: a slow replay
// before it in its trace (of sites it does not share) makes the later
// ones wait, so the runs are the same with 1, 2 or 4 workers.
func TestReplayQueueWrongObjectAcrossCombinations(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func(f func(context.Context, *testbin.Build, string, string, *trace.Schedule, string, replay.Options) replay.Verdict) {
		replayRun = f
	}(replayRun)
	pats, _ := pattern.Builtin("race")
	// inst's schedule carries its key in its first step's site and its
	// length (k) for the mock; its anomaly's sites are r, w (or other
	// for a key named "1…") and a third of its own.
	inst := func(key string, k int, sites ...string) prediction {
		steps := []string{"g1 write @k" + key}
		for n := 1; n < k; n++ {
			steps = append(steps, "g1 write @a")
		}
		steps = append(steps, "g2 read @r", "g3 write @w")
		p := predOf(t, schedOf([]int{k, k + 1}, steps...), false)
		p.a = predict.Anomaly{Pattern: pats[0], Key: key, Sites: append(sites, "x"+key)}
		return p
	}
	wrong := func(k int, rel string) replay.Verdict {
		return replay.Verdict{Verdict: replay.WrongObject, Step: k + 2, Steps: k + 2,
			Message: fmt.Sprintf("steps %d (g2 read T#%d @r n=%d) and %d (g3 write T#%d @w n=%d) of the anomaly touch %s in the prediction, but T#%d and T#%d in the replay", k+1, k, k, k+2, k, k, rel, k-1, k)}
	}
	for _, workers := range []int{1, 2, 4} {
		var mu sync.Mutex
		runs := map[string]int{}
		replayRun = func(_ context.Context, _ *testbin.Build, _, test string, s *trace.Schedule, _ string, _ replay.Options) replay.Verdict {
			k := len(s.Steps) - 2
			key := strings.TrimPrefix(s.Steps[0].Site, "k")
			mu.Lock()
			runs[test+"/"+key]++
			mu.Unlock()
			switch key {
			case "X":
				// Slow, and no failure within its steps: A's K1 after
				// it is done before it is final.
				time.Sleep(30 * time.Millisecond)
				return replay.Verdict{Verdict: replay.Diverged, Step: k + 2, Steps: k + 2}
			case "K4":
				return wrong(k, "different objects")
			case "K5":
				return replay.Verdict{Verdict: replay.Reproduced, Step: k + 2, Steps: k + 2}
			}
			return wrong(k, "the same object")
		}
		rep, seen := &Report{}, map[string]bool{}
		q := newReplayQueue(context.Background(), nil, "p", time.Now().Add(time.Hour), Options{}, seen)
		q.workers = workers
		q.add("A", &trace.Trace{}, []prediction{inst("X", 1, "s", "t"), inst("K1", 2, "r", "w"), inst("K6", 3, "w", "r")}, t.TempDir(), 100, replay.Options{})
		q.add("B", &trace.Trace{}, []prediction{inst("K2", 4, "r", "w")}, t.TempDir(), 100, replay.Options{})
		q.add("C", &trace.Trace{}, []prediction{inst("K4", 5, "r", "w"), inst("K7", 6, "r", "q")}, t.TempDir(), 100, replay.Options{})
		q.add("D", &trace.Trace{}, []prediction{inst("K5", 7, "r", "w")}, t.TempDir(), 100, replay.Options{})
		q.wait()
		q.finish(seen, rep)
		want := map[string]int{"A/X": 1, "A/K1": wrongObjectRuns, "A/K6": 1, "B/K2": 1, "C/K4": wrongObjectRuns, "C/K7": wrongObjectRuns, "D/K5": 1}
		if !maps.Equal(runs, want) {
			t.Errorf("%d workers: runs %v, want %v", workers, runs, want)
		}
		verdicts := map[string]string{}
		for _, f := range rep.Findings {
			verdicts[f.Test+"/"+f.Anomaly.Key] = f.Verdict.Verdict
		}
		if verdicts["B/K2"] != replay.WrongObject || verdicts["A/K6"] != replay.WrongObject || verdicts["D/K5"] != replay.Reproduced {
			t.Errorf("%d workers: verdicts %v, want A/K6 and B/K2 wrong-object, D/K5 reproduced", workers, verdicts)
		}
	}
}

func TestTwoSitesShared(t *testing.T) {
	for _, c := range []struct {
		a, b []string
		want bool
	}{
		{[]string{"r", "w", "x1"}, []string{"w", "x2", "r"}, true},
		{[]string{"r", "w", "x1"}, []string{"r", "q", "x2"}, false},
		{[]string{"w", "w"}, []string{"w", "x"}, false}, // one step at w in b
		{[]string{"w", "w", "x"}, []string{"w", "y", "w"}, true},
		{[]string{"r", "w", ""}, []string{"r", "w", "x"}, false}, // a site unknown
	} {
		if got := twoSitesShared(c.a, c.b); got != c.want {
			t.Errorf("twoSitesShared(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// keyedInst is an instance of combination key: k writes of g1, then the
// anomaly, g2's read and g3's write at sites of the key's own (its
// schedule in a file when file is set, predOf).
func keyedInst(t *testing.T, pat *pattern.Pattern, key string, k int, file bool) prediction {
	steps := make([]string, 0, k+2)
	for n := 0; n < k; n++ {
		steps = append(steps, "g1 write @a")
	}
	steps = append(steps, "g2 read @r"+key, "g3 write @w"+key)
	p := predOf(t, schedOf([]int{k, k + 1}, steps...), file)
	p.a = predict.Anomaly{Pattern: pat, Key: key, Sites: []string{key}}
	return p
}
