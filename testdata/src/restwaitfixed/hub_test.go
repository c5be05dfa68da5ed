package restwaitfixed

import (
	"testing"
	"time"
)

func TestPublish(t *testing.T) {
	h := New(500 * time.Microsecond)
	defer h.Close()
	time.Sleep(20 * time.Millisecond) // the listener waits first, even on a loaded machine
	h.Publish()
	for deadline := time.Now().Add(time.Second); h.Got() == 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if got := h.Got(); got != 1 {
		t.Errorf("listener got %d events, want 1", got)
	}
}
