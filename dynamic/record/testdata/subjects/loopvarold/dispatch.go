//go:build go1.21

package loopvarold

import (
	"sync"
	"time"
)

// Dispatcher runs jobs on workers, starting one worker every Pace.
type Dispatcher struct {
	Pace time.Duration
}

// Run processes every job with handle and waits for the workers.
func (d *Dispatcher) Run(jobs []string, handle func(string)) {
	var wg sync.WaitGroup
	for _, job := range jobs { // want "data race on Dispatcher\\.Run\\.job"
		wg.Add(1)
		go func() {
			defer wg.Done()
			handle(job)
		}()
		time.Sleep(d.Pace)
	}
	wg.Wait()
}
