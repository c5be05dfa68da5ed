package elemcopyfixed

import (
	"testing"
	"time"
)

func TestSnapshot(t *testing.T) {
	r := &Registry{entries: []Entry{{Name: "a"}, {Name: "b"}}}
	done := make(chan bool)
	go func() { // a client
		r.Hit(1)
		done <- true
	}()
	time.Sleep(10 * time.Millisecond) // the hit comes first
	if got := r.Snapshot(); got[1].Hits != 1 {
		t.Errorf("hits %d, want 1", got[1].Hits)
	}
	<-done
}
