package shop

import (
	"sync"
	"testing"
	"time"
)

func TestShopping(t *testing.T) {
	s := New(10)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // the supplier
		defer wg.Done()
		time.Sleep(3 * time.Millisecond)
		s.Deliver(5)
	}()
	go func() { // a second customer
		defer wg.Done()
		time.Sleep(6 * time.Millisecond)
		if !s.Buy(1) {
			t.Error("second customer refused")
		}
	}()
	if !s.Buy(2) { // the first customer
		t.Error("first customer refused")
	}
	wg.Wait()

	if got := s.Stock(); got != 12 {
		t.Errorf("stock = %d, want 12", got)
	}
	if got := s.Sold(); got != 3 {
		t.Errorf("sold = %d, want 3", got)
	}
}
