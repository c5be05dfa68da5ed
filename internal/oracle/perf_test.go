package oracle

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/internal/gen"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 42)) }

// TestRealKeysSpeed measures RealKeys over all built-in patterns on typical
// 14-event, 3-goroutine traces, and the size of Real's search.
func TestRealKeysSpeed(t *testing.T) {
	pats := builtin(t, "all")
	rng := newRand(3)
	const traces = 200
	var total, worst time.Duration
	var searches, states, maxStates, instances, reach, maxReach int
	var perTrace []time.Duration
	for range traces {
		tr := gen.Small(rng, gen.SmallOptions{Goroutines: 3, MaxEvents: 14})
		m := New(tr)
		start := time.Now()
		m.RealKeys(pats)
		d := time.Since(start)
		total += d
		worst = max(worst, d)
		perTrace = append(perTrace, d)
		r := reachable(m)
		reach += r
		maxReach = max(maxReach, r)
		for _, p := range pats {
			for _, inst := range m.Instances(p) {
				instances++
				_, _, n := m.real(p, inst)
				if n > 0 {
					searches++
					states += n
					maxStates = max(maxStates, n)
				}
			}
		}
	}
	slices.Sort(perTrace)
	t.Logf("RealKeys(all) on %d traces: mean %v, median %v, p95 %v, max %v",
		traces, total/traces, perTrace[traces/2], perTrace[traces*95/100], worst)
	t.Logf("Real: %d instances, %d searched, %.1f states per search on average, max %d",
		instances, searches, float64(states)/float64(max(searches, 1)), maxStates)
	t.Logf("reachable lock/POR-feasible position vectors per trace: %.1f on average, max %d",
		float64(reach)/traces, maxReach)
	if perTrace[traces/2] > 50*time.Millisecond {
		t.Errorf("median RealKeys time %v > 50ms", perTrace[traces/2])
	}
}

// reachable counts the position vectors reachable by feasible schedules.
func reachable(m *Model) int {
	s := &search{m: m, pos: make([]int, len(m.seq))}
	seen := map[string]bool{}
	var rec func()
	rec = func() {
		key := fmt.Sprint(s.pos)
		if seen[key] {
			return
		}
		seen[key] = true
		for g := range s.pos {
			if s.pos[g] < len(m.seq[g]) && s.enabled(m.seq[g][s.pos[g]]) {
				s.pos[g]++
				rec()
				s.pos[g]--
			}
		}
	}
	rec()
	return len(seen)
}
