package check

import (
	"context"
	"fmt"
	"math/rand"
	"runtime"
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

// probeWorld is a test whose goroutine g2 is started by uninstrumented
// code once g1 ran start steps (chi's mux tests: net/http's connection
// goroutine, once the server is up and the request sent): a schedule
// reaching g2's first step earlier stalls there, a later one reproduces.
type probeWorld struct {
	start int
	mu    sync.Mutex
	ran   []int // the depths replayed, in the order they finished
}

// preds are predictions "g1 ×depth g2 g1" for each depth, in order.
func (w *probeWorld) preds(t *testing.T, depths ...int) []prediction {
	pats, _ := pattern.Builtin("race")
	var ps []prediction
	for i, d := range depths {
		var steps []string
		for k := 0; k < d; k++ {
			steps = append(steps, fmt.Sprintf("g1 write @a%d", k))
		}
		s := schedOf([]int{d, d + 1}, append(steps, "g2 read @b", "g1 write @c")...)
		p := predOf(t, s, i%2 == 1)
		p.a = predict.Anomaly{Pattern: pats[0], Key: fmt.Sprint(i), Sites: []string{fmt.Sprint(i)}}
		ps = append(ps, p)
	}
	return ps
}

func (w *probeWorld) replay(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
	depth := 0
	p.eachStepG(func(g string) bool {
		if g == "g2" {
			return false
		}
		depth++
		return true
	})
	w.mu.Lock()
	w.ran = append(w.ran, depth)
	w.mu.Unlock()
	time.Sleep(time.Duration(rand.Intn(3)) * time.Millisecond)
	if depth < w.start {
		return replay.Verdict{Verdict: replay.Deadlock, Outside: true, Unstarted: true, Roots: []string{"g1"}, Step: depth + 1,
			Message: "every goroutine waits; step's goroutine g2 has not started (started outside instrumented code)"}
	}
	return replay.Verdict{Verdict: replay.Reproduced, Step: depth + 2}
}

func (w *probeWorld) run(t *testing.T, max int, depths ...int) (found []string, replays int, rep *Report) {
	found, replays, rep, _ = w.runSkipped(t, max, depths...)
	return found, replays, rep
}

func (w *probeWorld) runSkipped(t *testing.T, max int, depths ...int) (found []string, replays int, rep *Report, skipped int) {
	defer func() { runReplay = replayRetrying }()
	runReplay = w.replay
	rep = &Report{}
	tr := &trace.Trace{Tables: trace.Tables{Goroutines: []string{"g1", "g2"}}}
	skipped = replayBatch(context.Background(), nil, "p", "T", tr, w.preds(t, depths...), t.TempDir(),
		time.Now().Add(time.Hour), Options{MaxReplays: max}, map[string]bool{}, rep)
	for _, f := range rep.Findings {
		if f.Reproduced() {
			found = append(found, f.Anomaly.Key)
		}
	}
	return found, rep.Time.Replays, rep, skipped
}

// TestProbeDeepestFirst: after a replay stalls on g2 not started, the
// deepest schedule is replayed next; stalling too, its doom covers every
// shallower one, which the search order would otherwise replay one by
// one, each a step deeper (chi's TestMuxBasic).
func TestProbeDeepestFirst(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	w := &probeWorld{start: 100}
	found, replays, _ := w.run(t, 100, 1, 2, 3, 4, 5, 6, 7, 8, 9)
	if len(found) != 0 || replays != 2 {
		t.Errorf("found %v in %d replays (%v); want none in 2", found, replays, w.ran)
	}
	if len(w.ran) != 2 || w.ran[0] != 1 || w.ran[1] != 9 {
		t.Errorf("replayed depths %v, want [1 9]", w.ran)
	}
}

// TestProbeKeepsFeasible: a probe that gets past g2's first step proves
// nothing: the schedules that reach it late enough are still replayed
// and reproduce (no finding is lost), the probes bisect below it, and the
// probes' verdicts are no findings.
func TestProbeKeepsFeasible(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	w := &probeWorld{start: 10}
	depths := []int{2, 5, 12, 8, 3, 11, 9, 10}
	found, replays, rep := w.run(t, 100, depths...)
	if got := strings.Join(found, " "); got != "2 5 7" {
		t.Errorf("found %q, want the items at depths 12, 11, 10: \"2 5 7\"", got)
		for _, f := range rep.Findings {
			t.Logf("%s %+v", f.Anomaly.Key, f.Verdict)
		}
	}
	// Replay 1 (depth 2) stalls; its probe, the deepest (12), reproduces:
	// g2 starts by then. Replay 2 (5) stalls; its probe, the median of
	// 11 10 9 8 below 12 (9), stalls: its doom covers 8, 3 and 9. Then
	// 12, 11 and 10 are replayed: 7 replays.
	var got []string
	for _, f := range rep.Findings {
		got = append(got, f.Anomaly.Key)
	}
	if strings.Contains(" "+strings.Join(got, " ")+" ", " 3 ") || strings.Contains(" "+strings.Join(got, " ")+" ", " 4 ") {
		t.Errorf("findings %v: the items at depths 8 and 3 are covered by the probe's doom", got)
	}
	if replays != 7 {
		t.Errorf("%d replays (%v)", replays, w.ran)
	}
}

// TestProbeOrderIndependent: whatever the replays' durations and however
// many run at once, what is reproduced and what is left unreplayed for
// -maxreplays are those of the replays one after the other.
func TestProbeOrderIndependent(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for round := 0; round < 30; round++ {
		var depths []int
		for i := 0; i < 5+rng.Intn(25); i++ {
			depths = append(depths, rng.Intn(30))
		}
		start := 5 + rng.Intn(30)
		max := 1 + rng.Intn(10)
		var ref string
		for _, procs := range []int{1, 4, 4, 2} {
			func() {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				w := &probeWorld{start: start}
				found, _, _, skipped := w.runSkipped(t, max, depths...)
				got := fmt.Sprint(found, skipped)
				if procs == 1 {
					ref = got
					return
				}
				if got != ref {
					t.Errorf("round %d (depths %v, start %d, max %d), GOMAXPROCS %d: found, skipped %s; one at a time %s",
						round, depths, start, max, procs, got, ref)
				}
			}()
		}
	}
}
