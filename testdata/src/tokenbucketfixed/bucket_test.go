package tokenbucketfixed

import (
	"sync"
	"testing"
	"time"
)

// TestStall receives one frame as large as the bucket; a reader returns
// its tokens 5 ms later. The frame's take emptied the bucket: one stall.
func TestStall(t *testing.T) {
	s := NewSession(4)
	frames := make(chan int32, 1)
	frames <- 4
	go s.Recv(frames)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		s.Return(4)
	}()
	wg.Wait()
	close(frames)
	if n := s.Stalls(); n != 1 {
		t.Errorf("stalls = %d, want 1: the frame's take emptied the bucket", n)
	}
}
