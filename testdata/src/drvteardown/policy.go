package drvteardown

import "sync"

// policy counts the keys a cache hands it on a channel.
type policy struct {
	mu     sync.Mutex
	items  chan int
	closed bool
	n      int
}

func newPolicy() *policy {
	return &policy{items: make(chan int, 16)}
}

// Push queues k, unless the policy is closed or full.
func (p *policy) Push(k int) bool {
	if p.closed { // want "data race on policy\\.closed: this read and another goroutine's write \\(policy.go:36\\) can run back to back; reproduced, panic: send on closed channel"
		return false
	}
	select {
	case p.items <- k: // want "data race on chan_int: this send and another goroutine's close \\(policy.go:35\\) can run back to back; reproduced, panic: send on closed channel.*found by a generated driver calling Get and Reset"
		p.mu.Lock()
		p.n++
		p.mu.Unlock()
		return true
	default:
		return false
	}
}

// Close ends the policy: its channel is closed.
func (p *policy) Close() {
	close(p.items)
	p.closed = true
}

// Clear forgets what was counted.
func (p *policy) Clear() {
	p.mu.Lock()
	p.n = 0
	p.mu.Unlock()
}
