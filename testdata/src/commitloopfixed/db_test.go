package commitloopfixed

import (
	"sync"
	"testing"
	"time"
)

// TestMove: a reader polls the ledger while the job opens it and moves a
// batch of 3; every snapshot of an open ledger holds the total.
func TestMove(t *testing.T) {
	d := NewDB()
	batches, done := make(chan int), make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		time.Sleep(2 * time.Millisecond)
		d.Move(10, batches, done)
	}()
	go func() {
		defer wg.Done()
		for range 10 {
			if r := d.Snapshot(); len(r) > 0 && r["in"]+r["out"] != 10 {
				t.Logf("in %d + out %d != 10", r["in"], r["out"])
			}
			time.Sleep(time.Millisecond)
		}
	}()
	time.Sleep(5 * time.Millisecond)
	batches <- 3
	time.Sleep(5 * time.Millisecond)
	close(done)
	wg.Wait()
	if r := d.Snapshot(); r["in"] != 7 || r["out"] != 3 {
		t.Errorf("in %d, out %d; want 7, 3", r["in"], r["out"])
	}
}
