// Package etcd6429fixed is etcd6429 with the upstream fix of
// https://github.com/etcd-io/etcd/pull/6429: Close marks the balancer
// closed under b.mu, and Up does nothing once it is closed.
package etcd6429fixed

import "sync"

type simpleBalancer struct {
	mu       sync.Mutex
	upEps    map[string]struct{}
	upc      chan struct{} // closed while an endpoint is up, or after Close
	pinAddr  string
	notifyCh chan []string
	closed   bool
}

func newSimpleBalancer(eps ...string) *simpleBalancer {
	notifyCh := make(chan []string, 1)
	notifyCh <- eps
	return &simpleBalancer{
		upEps:    map[string]struct{}{},
		upc:      make(chan struct{}),
		notifyCh: notifyCh,
	}
}

// Up is gRPC saying that a connection to addr is up; it returns the
// function gRPC calls when the connection goes down.
func (b *simpleBalancer) Up(addr string) func(error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	// gRPC may call Up after it called Close: upc is closed then.
	if b.closed {
		return func(error) {}
	}
	if len(b.upEps) == 0 {
		// Wake the waiting Gets and pin the first connected address.
		close(b.upc)
		b.pinAddr = addr
	}
	b.upEps[addr] = struct{}{}
	return func(error) {
		b.mu.Lock()
		defer b.mu.Unlock()
		delete(b.upEps, addr)
		if len(b.upEps) == 0 && b.pinAddr != "" {
			b.upc = make(chan struct{})
		}
	}
}

// Get returns the pinned address once one is up.
func (b *simpleBalancer) Get() string {
	b.mu.Lock()
	upc := b.upc
	b.mu.Unlock()
	<-upc
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.pinAddr
}

// Close ends the waiting Gets.
func (b *simpleBalancer) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	close(b.notifyCh)
	b.pinAddr = ""
	if len(b.upEps) == 0 {
		close(b.upc)
	}
	return nil
}
