// Package moby33781fixed is moby33781 with the upstream fix of
// https://github.com/moby/moby/pull/33781: on stop during a probe the
// monitor cancels the probe and waits for its result before returning.
package moby33781fixed

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
				<-results
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
