//go:build go1.25

package bubbleclock

import (
	"testing"
	"testing/synctest"
	"time"
)

func TestTwice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var m Meter
		done := make(chan struct{})
		go func() {
			time.Sleep(time.Millisecond)
			m.Inc()
			close(done)
		}()
		start := time.Now()
		m.Twice()
		if d := time.Since(start); d != 0 {
			t.Errorf("Twice took %v of the bubble's time, want 0", d)
		}
		<-done
		if n := m.Count(); n != 3 {
			t.Errorf("count %d, want 3", n)
		}
	})
}
