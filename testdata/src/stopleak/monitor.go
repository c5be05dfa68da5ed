package stopleak

import "sync"

// Monitor probes a target round after round, each probe in a goroutine
// of its own, and counts the rounds the target was up, until Stop.
type Monitor struct {
	quit, stopped chan struct{}
	mu            sync.Mutex
	up            int
}

// Start starts a Monitor of probe.
func Start(probe func() bool) *Monitor {
	m := &Monitor{quit: make(chan struct{}), stopped: make(chan struct{})}
	go m.run(probe)
	return m
}

func (m *Monitor) run(probe func() bool) {
	defer close(m.stopped)
	for {
		res := make(chan bool)
		go func() {
			res <- probe() // want "goroutine g[0-9.]+ blocked forever in chan send at monitor\\.go:25: (its receiver returned at monitor\\.go:30 \\(leak\\)|nothing live can receive from its channel \\(leak, observed in the recorded run\\)); reproduced"
		}()
		select {
		case <-m.quit:
			return
		case ok := <-res:
			if ok {
				m.mu.Lock()
				m.up++
				m.mu.Unlock()
			}
		}
	}
}

// Stop stops the monitor and waits until it has stopped.
func (m *Monitor) Stop() {
	close(m.quit)
	<-m.stopped
}

// Up returns the number of rounds the target was up.
func (m *Monitor) Up() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.up
}
