// Package etcd9446fixed is etcd9446 with the upstream fix of
// https://github.com/etcd-io/etcd/pull/9446: defrag resets the read
// transaction under its write lock.
package etcd9446fixed

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
	b.readTx.mu.Lock()
	b.readTx.reset()
	b.readTx.mu.Unlock()
}

func (b *backend) Range(key string) (string, bool) {
	b.readTx.mu.RLock()
	defer b.readTx.mu.RUnlock()
	return b.readTx.UnsafeRange(key)
}
