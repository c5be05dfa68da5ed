package selectleakfixed

import (
	"testing"
	"time"
)

func TestFetch(t *testing.T) {
	v, err := Fetch(func() int { return 42 }, time.Second)
	if err != nil || v != 42 {
		t.Errorf("Fetch = %d, %v, want 42, nil", v, err)
	}
}
