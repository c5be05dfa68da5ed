package hashset

import (
	"sync"
	"testing"
	"time"
)

func TestAddSameElement(t *testing.T) {
	s := New[string]()
	s.Add("alice")

	var wg sync.WaitGroup
	var second bool
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // a retried request adds bob again
		second = s.Add("bob")
	}()
	first := s.Add("bob")
	wg.Wait()

	if !first || second {
		t.Errorf("Add reported new = %v, %v; want exactly the first", first, second)
	}
	if got := s.Len(); got != 2 {
		t.Errorf("Len = %d, want 2", got)
	}
	if !s.Remove("bob") || s.Len() != 1 {
		t.Errorf("after Remove, Len = %d, want 1", s.Len())
	}
}
