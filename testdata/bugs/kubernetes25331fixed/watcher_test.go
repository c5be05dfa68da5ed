package kubernetes25331fixed

import (
	"testing"
	"time"
)

func TestWatchError(t *testing.T) {
	wc := newWatchChan()
	go wc.run()
	stopCh := make(chan struct{})
	go func() {
		time.Sleep(20 * time.Millisecond) // the reflector is stopped later
		close(stopCh)
	}()
	// Either the watch's error or, when the stop comes first (a loaded
	// machine), the stop ends the handler.
	if err := watchHandler(wc, stopCh); err != errCompacted && err != errStopped {
		t.Errorf("watchHandler = %v, want %v or %v", err, errCompacted, errStopped)
	}
}
