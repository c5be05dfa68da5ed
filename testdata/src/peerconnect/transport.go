package peerconnect

import (
	"fmt"
	"sync"
)

// Transport routes calls to its peers' transports by address.
type Transport struct {
	mu     sync.RWMutex
	addr   string
	peers  map[string]*Transport
	served int
}

func NewTransport(addr string) *Transport {
	return &Transport{addr: addr, peers: map[string]*Transport{}}
}

// Connect routes addr to p.
func (t *Transport) Connect(addr string, p *Transport) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.peers[addr] = p // want "atomicity violation on .*Transport"
}

// Call sends a request to the peer at addr, which answers with its own
// address.
func (t *Transport) Call(addr string) (string, error) {
	t.mu.RLock()
	p, ok := t.peers[addr]
	t.mu.RUnlock()
	if !ok {
		return "", fmt.Errorf("no route to %s", addr)
	}
	return p.serve(), nil
}

func (t *Transport) serve() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.served++
	return t.addr
}

// Cluster is a set of transports.
type Cluster struct {
	trans []*Transport
}

// FullyConnect connects every transport to every other: each route is
// marked pending (nil) first, then connected.
func (c *Cluster) FullyConnect() {
	for i, t1 := range c.trans {
		for j, t2 := range c.trans {
			if i != j {
				t1.Connect(t2.addr, nil)
				t1.Connect(t2.addr, t2)
			}
		}
	}
}
