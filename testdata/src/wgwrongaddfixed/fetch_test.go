package wgwrongaddfixed

import "testing"

func TestFetchAll(t *testing.T) {
	var f Fetcher
	n := f.FetchAll([]string{"a"})
	if n != 1 {
		t.Errorf("fetched %d pages, want 1", n)
	}
}
