//go:build go1.21

package loopvarold

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	var mu sync.Mutex
	var done []string
	d := &Dispatcher{Pace: 5 * time.Millisecond}
	d.Run([]string{"a", "b", "c"}, func(job string) {
		mu.Lock()
		done = append(done, job)
		mu.Unlock()
	})
	slices.Sort(done)
	if !slices.Equal(done, []string{"a", "b", "c"}) {
		t.Errorf("processed %v, want [a b c]", done)
	}
}
