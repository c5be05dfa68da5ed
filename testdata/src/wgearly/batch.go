package wgearly

import (
	"sync"
	"sync/atomic"
)

// Batch runs jobs concurrently and counts those done.
type Batch struct {
	wg   sync.WaitGroup
	done atomic.Int64
}

// Run starts job in a goroutine of its own.
func (b *Batch) Run(job func()) {
	go b.run(job)
}

func (b *Batch) run(job func()) {
	defer b.done.Add(1)
	b.wg.Add(1) // want "WaitGroup\\.Add after Wait"
	defer b.wg.Done()
	job()
}

// Wait waits for the jobs started with Run and returns how many are
// done.
func (b *Batch) Wait() int64 {
	b.wg.Wait()
	return b.done.Load()
}
