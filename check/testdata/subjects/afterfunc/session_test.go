package afterfunc

import (
	"testing"
	"time"
)

func TestExpiry(t *testing.T) {
	s := Open("ann", time.Millisecond)
	time.Sleep(200 * time.Millisecond) // ample, even on a loaded machine
	if !s.Expired() {
		t.Errorf("session not expired after its lifetime")
	}
}
