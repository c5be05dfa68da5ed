package afterfunc

import (
	"testing"
	"time"
)

func TestExpiry(t *testing.T) {
	s := Open("ann", time.Millisecond)
	time.Sleep(20 * time.Millisecond)
	if !s.Expired() {
		t.Errorf("session not expired after its lifetime")
	}
}
