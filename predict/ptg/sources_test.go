package ptg

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pecanvet/pecanvet/internal/gen"
)

// TestSourcesByRank: Sources, which finds an event's place among the
// events with POR edges by a popcount over srcRank, gives every event the
// sources the sorted list srcDst gives it by binary search, and none to
// an event without edges.
func TestSourcesByRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	withSrc := 0
	check := func(gr *Graph) {
		for e := int32(0); e < int32(len(gr.Tr.Events)); e++ {
			var want []int32
			if k, ok := slices.BinarySearch(gr.srcDst, e); ok {
				end := int32(len(gr.srcList))
				if k+1 < len(gr.srcOff) {
					end = gr.srcOff[k+1]
				}
				want = gr.srcList[gr.srcOff[k]:end]
				withSrc++
			}
			if got := gr.Sources(e); !slices.Equal(got, want) {
				t.Fatalf("event %d: sources %v, want %v", e, got, want)
			}
		}
	}
	for i := 0; i < 200; i++ {
		check(Build(gen.Small(rng, gen.SmallOptions{Goroutines: 2 + i%4, MaxEvents: 10 + i%90})))
	}
	check(Build(gen.Large(gen.LargeOptions{Events: 50000, Goroutines: 12, Locations: 32, Locks: 4, ChannelDensity: 0.05, Seed: 9})))
	if withSrc < 1000 {
		t.Fatalf("%d events with sources in all: too few to compare", withSrc)
	}
}
