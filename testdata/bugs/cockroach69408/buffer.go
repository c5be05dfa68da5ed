// Package cockroach69408 reduces cockroachdb/cockroach#69408
// (https://github.com/cockroachdb/cockroach/pull/69408, changefeedccl:
// replace sync.Cond with channel in TestBlockingBuffer; the hang of
// https://github.com/cockroachdb/cockroach/issues/69373).
//
// The producer pushes into a memory-bounded blocking buffer; when an
// allocation blocks, the buffer's notifyWait callback calls cond.Signal.
// The consumer waits for that signal (cond.Wait) before it starts draining.
// Signal wakes only current waiters: if the producer blocks and signals
// before the consumer reaches Wait, the signal is lost, the consumer waits
// for ever, and the producer stays blocked on the full buffer.
//
// Upstream fix: notifyWait sends on a buffered channel that the consumer
// receives from, so the notification is kept until it is taken.
package cockroach69408

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
	var mu sync.Mutex
	waitCond := sync.NewCond(&mu)
	b := &blockingBuffer{quota: 1, spaceFreed: make(chan struct{}, 1)}
	b.notifyWait = func() { waitCond.Signal() }
	go func() {
		time.Sleep(10 * time.Millisecond) // the producer starts later
		for i := 1; i <= n; i++ {
			b.Push(i)
		}
	}()
	time.Sleep(consumerDelay)
	mu.Lock()
	waitCond.Wait()
	mu.Unlock()
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
