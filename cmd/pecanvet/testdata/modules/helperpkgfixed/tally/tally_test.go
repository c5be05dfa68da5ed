package tally

import "testing"

// TestCount reads the count only after the counting ended.
func TestCount(t *testing.T) {
	var tl Tally
	done := make(chan struct{})
	tl.Count(3, done)
	<-done
	if tl.N() != 3 {
		t.Fatalf("%d events, want 3", tl.N())
	}
}
