package kubernetes25331

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
	if err := watchHandler(wc, stopCh); err != errCompacted {
		t.Errorf("watchHandler = %v, want %v", err, errCompacted)
	}
}
