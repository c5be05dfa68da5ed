package observedleak

import (
	"testing"
	"time"
)

func TestLookupTimeout(t *testing.T) {
	slow := func(string) string {
		time.Sleep(50 * time.Millisecond)
		return "10.0.0.1"
	}
	if _, err := Lookup(slow, "db", time.Millisecond); err != errTimeout {
		t.Errorf("Lookup = %v, want %v", err, errTimeout)
	}
}
