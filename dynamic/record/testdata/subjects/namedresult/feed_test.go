package namedresult

import (
	"testing"
	"time"
)

func TestLatest(t *testing.T) {
	f := New(100, func() int { return 105 }, 10*time.Millisecond)
	if got := f.Latest(); got != 105 {
		t.Errorf("price %d, want 105", got)
	}
}
