package lockstopfixed

import (
	"sync"
	"time"
)

// Poller counts polls every interval until Stop.
type Poller struct {
	mu    sync.Mutex
	quit  chan struct{}
	polls int
}

// Start starts a poller.
func Start(interval time.Duration) *Poller {
	p := &Poller{quit: make(chan struct{})}
	go p.run(interval)
	return p
}

func (p *Poller) run(interval time.Duration) {
	for {
		select {
		case <-p.quit:
			return
		case <-time.After(interval):
			p.poll()
		}
	}
}

func (p *Poller) poll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.polls++
}

// Stop stops the poller and returns the number of polls.
func (p *Poller) Stop() int {
	p.quit <- struct{}{} // before the lock: the loop may need it to come back
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.polls
}
