package stopcleanupfixed

import (
	"testing"
	"time"
)

func TestExpired(t *testing.T) {
	s := New(time.Millisecond)
	defer s.Stop()
	s.Put("a", time.Now().Add(-time.Second))
	for i := 0; i < 200; i++ {
		if !s.Has("a") {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("expired entry not removed")
}
