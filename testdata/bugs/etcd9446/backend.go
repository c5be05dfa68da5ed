// Package etcd9446 reduces etcd-io/etcd#9446
// (https://github.com/etcd-io/etcd/pull/9446, mvcc/backend: defrag to
// block concurrent read requests while resetting tx).
//
// Reads range over the read transaction's buffer under rt.mu.RLock.
// backend.defrag resets the read transaction (deleting every bucket of its
// buffer) without taking rt.mu: a data race between the map delete and a
// concurrent read's map access.
//
// Upstream fix: defrag takes the read transaction's write lock
// (rt.mu.Lock) around reset.
package etcd9446

import "sync"

type txBuffer struct{ buckets map[string]string }

func (txb *txBuffer) reset() {
	for k := range txb.buckets {
		delete(txb.buckets, k)
	}
}

type readTx struct {
	mu  sync.RWMutex
	buf txBuffer
}

// UnsafeRange reads a key; the caller holds rt.mu's read lock.
func (rt *readTx) UnsafeRange(key string) (string, bool) {
	v, ok := rt.buf.buckets[key]
	return v, ok
}

func (rt *readTx) reset() { rt.buf.reset() }

type backend struct{ readTx *readTx }

func (b *backend) defrag() {
	b.readTx.reset()
}

func (b *backend) Range(key string) (string, bool) {
	b.readTx.mu.RLock()
	defer b.readTx.mu.RUnlock()
	return b.readTx.UnsafeRange(key)
}
