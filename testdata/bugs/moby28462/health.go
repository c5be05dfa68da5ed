// Package moby28462 reduces moby/moby#28462
// (https://github.com/moby/moby/pull/28462, fixing the deadlock of
// https://github.com/moby/moby/issues/28405 between the container lock and
// the health monitor's stop channel).
//
// Daemon.StateChanged holds the container's lock and, when the container
// stops, calls Health.CloseMonitorChannel, which sends on the monitor's
// unbuffered stop channel. The monitor goroutine handles each probe result
// under the same container lock (handleProbeResult). If a probe finishes
// just as the container stops, the monitor waits for the lock that
// StateChanged holds while StateChanged waits for the monitor to receive:
// both blocked for ever.
//
// Upstream fix: CloseMonitorChannel closes the stop channel instead of
// sending on it, so it never waits for the monitor.
package moby28462

import (
	"sync"
	"time"
)

// Health is a container's health-check state.
type Health struct {
	stop chan struct{}
}

// OpenMonitorChannel returns the channel that stops the monitor.
func (s *Health) OpenMonitorChannel() chan struct{} {
	if s.stop == nil {
		s.stop = make(chan struct{})
		return s.stop
	}
	return nil
}

// CloseMonitorChannel stops the monitor.
func (s *Health) CloseMonitorChannel() {
	if s.stop != nil {
		s.stop <- struct{}{}
		s.stop = nil
	}
}

// Container is a container under its lock.
type Container struct {
	sync.Mutex
	Health  *Health
	Running bool
	probes  int
}

// Daemon manages containers.
type Daemon struct{}

// StateChanged is the container event handler: the container stopped.
func (d *Daemon) StateChanged(c *Container) {
	c.Lock()
	defer c.Unlock()
	c.Running = false
	d.updateHealthMonitor(c)
}

func (d *Daemon) updateHealthMonitor(c *Container) {
	h := c.Health
	if c.Running {
		if stop := h.OpenMonitorChannel(); stop != nil {
			go monitor(d, c, stop)
		}
	} else {
		h.CloseMonitorChannel()
	}
}

// initHealthMonitor starts the monitor of a running container.
func (d *Daemon) initHealthMonitor(c *Container) {
	c.Lock()
	defer c.Unlock()
	c.Running = true
	d.updateHealthMonitor(c)
}

func monitor(d *Daemon, c *Container, stop chan struct{}) {
	probeInterval := 50 * time.Millisecond
	for {
		select {
		case <-stop:
			return
		case <-time.After(probeInterval):
			handleProbeResult(d, c)
		}
	}
}

func handleProbeResult(d *Daemon, c *Container) {
	c.Lock()
	defer c.Unlock()
	c.probes++
}
