package roombookfixed

import (
	"sync"
	"testing"
	"time"
)

func TestAssignOtherRoom(t *testing.T) {
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
		d.Assign("green", "bob")
		d.Cancel("red")
	}()
	wg.Wait()
	if a, b := d.Holder("blue"), d.Holder("green"); a != "ann" || b != "bob" {
		t.Errorf("blue is %q's and green %q's, want ann's and bob's", a, b)
	}
}
