// Package etcd6429 reduces etcd-io/etcd#6429
// (https://github.com/etcd-io/etcd/pull/6429, clientv3: balancer panics
// when call up after close; https://github.com/etcd-io/etcd/issues/6395).
//
// The client's simpleBalancer closes upc to wake the Gets waiting for a
// connection: Up closes it when the first endpoint comes up (upEps was
// empty), and Close closes it when none is up, to end the waiting Gets.
// Both decide under b.mu, so there is no data race; but gRPC may call Up
// after it called Close. In the test the connection comes up well before
// the client closes; in the bad schedule Close runs first, finds upEps
// empty and closes upc, and the Up that follows finds upEps still empty
// and closes upc again: close of closed channel.
//
// Upstream fix: Close sets b.closed under b.mu (and returns at once if it
// is set), and Up, under b.mu, does nothing once the balancer is closed.
package etcd6429

import "sync"

type simpleBalancer struct {
	mu       sync.Mutex
	upEps    map[string]struct{}
	upc      chan struct{} // closed while an endpoint is up, or after Close
	pinAddr  string
	notifyCh chan []string
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
	close(b.notifyCh)
	b.pinAddr = ""
	if len(b.upEps) == 0 {
		close(b.upc)
	}
	return nil
}
