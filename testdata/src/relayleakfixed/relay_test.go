package relayleakfixed

import (
	"testing"
	"time"
)

func TestRelay(t *testing.T) {
	in := make(chan int)
	out := (&Relay{}).Subscribe(in)
	go func() {
		in <- 1 // the value is there at once
	}()
	if v, ok := Read(out, time.Second); !ok || v != 1 {
		t.Errorf("Read = %d, %v; want 1, true", v, ok)
	}
}
