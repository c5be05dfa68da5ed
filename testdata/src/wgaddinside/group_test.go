package wgaddinside

import (
	"slices"
	"testing"
	"time"
)

func TestGroup(t *testing.T) {
	var g Group
	g.Go(func() int { return 1 })
	g.Go(func() int { return 2 })
	time.Sleep(50 * time.Millisecond) // prepare the report meanwhile (50 ms: a loaded machine needs more than 5 for the Adds to run)

	got := slices.Sorted(slices.Values(g.Wait()))
	if !slices.Equal(got, []int{1, 2}) {
		t.Errorf("results %v, want [1 2]", got)
	}
}
