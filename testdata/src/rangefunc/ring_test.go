package rangefunc

import (
	"testing"
	"time"
)

func TestAll(t *testing.T) {
	r := New(2)
	done := make(chan bool)
	go func() { // the sensor
		r.Put(1, 7)
		done <- true
	}()
	time.Sleep(5 * time.Millisecond) // the reading comes first
	sum := 0
	for v := range r.All() {
		sum += v
	}
	if sum != 7 {
		t.Errorf("sum %d, want 7", sum)
	}
	<-done
}
