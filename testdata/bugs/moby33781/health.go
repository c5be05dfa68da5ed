// Package moby33781 reduces moby/moby#33781
// (https://github.com/moby/moby/pull/33781, health: wait for the probe to
// exit when the monitor is stopped).
//
// Each probe runs in a goroutine that sends its result on an unbuffered
// results channel. The monitor selects on stop, results and the probe's
// context. When stop arrives during a probe, the monitor cancels the probe
// and returns without draining results: the probe goroutine stays blocked
// on its send for ever.
//
// Upstream fix: on stop, the monitor cancels the probe and then waits for
// it, receiving from results (<-results) before it returns.
package moby33781

import (
	"context"
	"time"
)

func monitor(stop chan struct{}, probe func(context.Context) bool, record func(bool)) {
	probeInterval := 10 * time.Millisecond
	probeTimeout := time.Second
	for {
		select {
		case <-stop:
			return
		case <-time.After(probeInterval):
			results := make(chan bool)
			ctx, cancelProbe := context.WithTimeout(context.Background(), probeTimeout)
			go func() {
				results <- probe(ctx)
				close(results)
			}()
			select {
			case <-stop:
				cancelProbe()
				return
			case result := <-results:
				cancelProbe()
				record(result)
			case <-ctx.Done():
				cancelProbe()
				<-results
			}
		}
	}
}
