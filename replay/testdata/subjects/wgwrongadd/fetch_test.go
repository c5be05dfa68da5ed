package wgwrongadd

import "testing"

func TestFetchAll(t *testing.T) {
	var f Fetcher
	n := f.FetchAll([]string{"a", "bb"})
	if n != 2 {
		t.Errorf("fetched %d pages, want 2", n)
	}
}
