package kubernetes82550

import (
	"sync"
	"testing"
	"time"
)

func TestConcurrentImagePulls(t *testing.T) {
	p := &lazyEcrProvider{region: "us-west-2", regionURL: "123456789012.dkr.ecr.us-west-2.amazonaws.com"}
	var wg sync.WaitGroup
	entries := make([]*DockerConfigEntry, 2)
	for i := range entries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 20 * time.Millisecond) // the second pull comes later
			entries[i] = p.LazyProvide()
		}()
	}
	wg.Wait()
	for i, e := range entries {
		if e == nil || e.Password != "token-us-west-2" {
			t.Errorf("pull %d: entry %+v, want the region's token", i, e)
		}
	}
}
