package sliceappend

import (
	"slices"
	"testing"
	"time"
)

func TestCollect(t *testing.T) {
	urls := []string{"a", "bb", "ccc"}
	fetch := func(url string) int {
		time.Sleep(time.Duration(len(url)) * 3 * time.Millisecond) // latency
		return len(url)
	}
	got := slices.Sorted(slices.Values(Collect(urls, fetch)))
	if !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("sizes %v, want [1 2 3]", got)
	}
}
