package wgearlyfixed

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
	b.wg.Add(1)
	go b.run(job)
}

func (b *Batch) run(job func()) {
	defer b.wg.Done()
	defer b.done.Add(1)
	job()
}

// Wait waits for the jobs started with Run and returns how many are
// done.
func (b *Batch) Wait() int64 {
	b.wg.Wait()
	return b.done.Load()
}
