// Package cockroach69408fixed is cockroach69408 with the upstream fix of
// https://github.com/cockroachdb/cockroach/pull/69408: notifyWait sends on
// a buffered channel, which keeps the notification until the consumer
// receives it.
package cockroach69408fixed

import (
	"sync"
	"time"
)

// blockingBuffer holds at most quota entries; Push blocks while it is full
// and calls notifyWait first.
type blockingBuffer struct {
	mu         sync.Mutex
	entries    []int
	quota      int
	notifyWait func()
	spaceFreed chan struct{}
}

func (b *blockingBuffer) Push(v int) {
	for {
		b.mu.Lock()
		if len(b.entries) < b.quota {
			b.entries = append(b.entries, v)
			b.mu.Unlock()
			return
		}
		b.mu.Unlock()
		b.notifyWait()
		<-b.spaceFreed
	}
}

func (b *blockingBuffer) Get() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	v := b.entries[0]
	b.entries = b.entries[1:]
	select {
	case b.spaceFreed <- struct{}{}:
	default:
	}
	return v
}

// runBlockingBuffer produces n entries into a buffer of quota 1 and
// consumes them once the producer blocks; it returns their sum.
func runBlockingBuffer(n int, consumerDelay time.Duration) int {
	waitCh := make(chan struct{}, 1)
	b := &blockingBuffer{quota: 1, spaceFreed: make(chan struct{}, 1)}
	b.notifyWait = func() {
		select {
		case waitCh <- struct{}{}:
		default:
		}
	}
	go func() {
		time.Sleep(10 * time.Millisecond) // the producer starts later
		for i := 1; i <= n; i++ {
			b.Push(i)
		}
	}()
	time.Sleep(consumerDelay)
	<-waitCh
	sum := 0
	for i := 0; i < n; i++ {
		for {
			b.mu.Lock()
			ok := len(b.entries) > 0
			b.mu.Unlock()
			if ok {
				break
			}
			time.Sleep(time.Millisecond)
		}
		sum += b.Get()
	}
	return sum
}
