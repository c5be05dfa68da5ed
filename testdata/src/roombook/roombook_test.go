package roombook

import (
	"sync"
	"testing"
	"time"
)

func TestAssignSameRoom(t *testing.T) {
	d := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		d.Reserve("blue", "ann")
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // after ann's reservation
		d.Assign("blue", "bob")
	}()
	wg.Wait()
	if h := d.Holder("blue"); h != "bob" {
		t.Errorf("blue is %q's, want bob's: the manager's assignment was lost", h)
	}
}
