package hotcoldfixed

import (
	"math"
	"sync"
	"sync/atomic"
)

// Hist counts and sums observations in two shards, hot and cold.
type Hist struct {
	mu          sync.RWMutex
	countAndHot uint64 // bit 63: the hot shard; the bits below: the count
	shards      [2]shard
}

type shard struct {
	n       uint64
	sumBits uint64
}

// Observe records v in the hot shard.
func (h *Hist) Observe(v float64) {
	h.mu.RLock() // observations run together, never across a flip
	defer h.mu.RUnlock()
	// The result's top bit picks the hot shard; its count bits are not
	// used.
	n := atomic.AddUint64(&h.countAndHot, 1)
	s := &h.shards[n>>63]
	addFloat(&s.sumBits, v)
	atomic.AddUint64(&s.n, 1)
}

// Write flips the shards and returns the count and the cold shard's
// count and sum, which it takes and merges into the hot shard.
func (h *Hist) Write() (count, n uint64, sum float64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	m := atomic.AddUint64(&h.countAndHot, 1<<63)
	count = m & (1<<63 - 1)
	hot, cold := &h.shards[m>>63], &h.shards[(^m)>>63]
	n = atomic.LoadUint64(&cold.n)
	sum = math.Float64frombits(atomic.LoadUint64(&cold.sumBits))
	atomic.AddUint64(&hot.n, n)
	addFloat(&hot.sumBits, sum)
	atomic.StoreUint64(&cold.n, 0)
	atomic.StoreUint64(&cold.sumBits, 0)
	return count, n, sum
}

func addFloat(bits *uint64, v float64) {
	for {
		old := atomic.LoadUint64(bits)
		if atomic.CompareAndSwapUint64(bits, old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}
