package afterfuncfixed

import (
	"testing"
	"time"
)

func TestExpiry(t *testing.T) {
	s := Open("ann", time.Millisecond)
	s.Wait()
	if !s.Expired() {
		t.Errorf("session not expired after its lifetime")
	}
}
