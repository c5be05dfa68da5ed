package initcheck

import (
	"sync"
	"testing"
	"time"
)

func TestStartVote(t *testing.T) {
	s := NewServer()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if err := s.Start(); err != nil {
			t.Error(err)
		}
	}()
	go func() {
		defer wg.Done()
		time.Sleep(time.Millisecond)
		if err := s.Vote(); err != nil {
			t.Logf("vote refused: %v", err)
		}
	}()
	wg.Wait()
}
