package moby28462fixed

import (
	"testing"
	"time"
)

func TestStopWhileProbing(t *testing.T) {
	d := &Daemon{}
	c := &Container{Health: &Health{}}
	d.initHealthMonitor(c)
	time.Sleep(75 * time.Millisecond) // one probe, then the container stops between two
	d.StateChanged(c)
	c.Lock()
	defer c.Unlock()
	if c.Running || c.probes == 0 {
		t.Errorf("running=%v probes=%d, want stopped after some probes", c.Running, c.probes)
	}
}
