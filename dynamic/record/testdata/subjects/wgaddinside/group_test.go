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
	time.Sleep(5 * time.Millisecond) // prepare the report meanwhile

	got := slices.Sorted(slices.Values(g.Wait()))
	if !slices.Equal(got, []int{1, 2}) {
		t.Errorf("results %v, want [1 2]", got)
	}
}
