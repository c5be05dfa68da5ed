package timerrelay

import (
	"testing"
	"time"
)

func TestRelay(t *testing.T) {
	in := make(chan int)
	out := (&Relay{}).Subscribe(in)
	go func() {
		<-time.After(2 * time.Millisecond) // the source waits on a timer of its own
		in <- 1
	}()
	if v, ok := Read(out, time.Second); !ok || v != 1 {
		t.Errorf("Read = %d, %v; want 1, true", v, ok)
	}
}
