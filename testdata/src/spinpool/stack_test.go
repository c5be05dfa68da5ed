package spinpool

import (
	"sync"
	"testing"
)

func TestTakeWaits(t *testing.T) {
	s := New()
	got := make(chan int)
	go func() { got <- s.Take() + s.Take() }()
	s.Put(1)
	s.Put(2)
	if v := <-got; v != 3 {
		t.Fatalf("took %d, want 3", v)
	}
}

func TestLenWhilePut(t *testing.T) {
	s := New()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.Put(1)
	}()
	n := s.Len()
	wg.Wait()
	if n > 1 {
		t.Fatalf("len %d", n)
	}
}

func TestCounter(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc()
		}()
	}
	wg.Wait()
	if n := c.Get(); n != 2 {
		t.Fatalf("count %d, want 2", n)
	}
}
