// Package moby28462fixed is moby28462 with the upstream fix of
// https://github.com/moby/moby/pull/28462: CloseMonitorChannel closes the
// stop channel rather than sending on it, so StateChanged never waits for
// the monitor while it holds the container lock.
package moby28462fixed

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
		close(s.stop)
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
