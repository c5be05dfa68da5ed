package ptg

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pecanvet/pecanvet/internal/gen"
)

// TestFastAccessPath builds random traces, valid and not (unbalanced locks
// and regions, receives before sends, joins of goroutines that did not
// run), with and without step's path for plain accesses: the graphs must
// be equal in every field, warnings included.
func TestFastAccessPath(t *testing.T) {
	defer func() { fastAccess = true }()
	rng := rand.New(rand.NewPCG(11, 17))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		tr := gen.Small(rng, gen.SmallOptions{Goroutines: 2 + i%4, MaxEvents: 10 + i%30})
		if i%2 == 1 {
			// Perturb: drop and duplicate events, so that the trace
			// breaks the rules the general path warns about.
			evs := tr.Events[:0:0]
			for _, e := range tr.Events {
				switch rng.IntN(8) {
				case 0:
				case 1:
					evs = append(evs, e, e)
				default:
					evs = append(evs, e)
				}
			}
			tr.Events = evs
			if tr.Check() != nil {
				continue // Build's input must pass Check
			}
		}
		fastAccess = true
		fast := Build(tr)
		fastAccess = false
		slow := Build(tr)
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("trace %d: graphs differ with the fast access path\n%s", i, gen.Describe(tr))
		}
	}
	tr := gen.Large(gen.LargeOptions{Events: 50000, Goroutines: 8, Locations: 64, Locks: 8, ChannelDensity: 0.01, Seed: 3})
	fastAccess = true
	fast := Build(tr)
	fastAccess = false
	slow := Build(tr)
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("large trace: graphs differ with the fast access path")
	}
}
