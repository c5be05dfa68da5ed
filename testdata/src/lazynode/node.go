package lazynode

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Map is a bounded set of keys whose node is made on first use.
type Map struct {
	mu   sync.Mutex
	node unsafe.Pointer // *node
}

type node struct {
	mu    sync.Mutex
	m     map[string]int
	limit int
}

func (m *Map) getNode() *node {
	n := (*node)(atomic.LoadPointer(&m.node))
	if n == nil {
		m.mu.Lock()
		n = (*node)(atomic.LoadPointer(&m.node))
		if n == nil {
			n = &node{m: make(map[string]int)}
			atomic.StorePointer(&m.node, unsafe.Pointer(n)) // want "atomic-set-serializability violation on Map\\.node, node\\.limit"
			n.limit = 8                                     // want "data race on node\\.limit" "atomic-set-serializability violation on node\\.limit, map\\[string\\]int"
		}
		m.mu.Unlock()
	}
	return n
}

// Store puts k into the set.
func (m *Map) Store(k string, v int) {
	n := m.getNode()
	n.mu.Lock()
	n.m[k] = v
	n.mu.Unlock()
}

// Full says whether the set holds its limit of keys.
func (m *Map) Full() bool {
	n := m.getNode()
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.m) >= n.limit
}
