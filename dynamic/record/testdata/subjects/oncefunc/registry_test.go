package oncefunc

import (
	"testing"
	"time"
)

func TestSize(t *testing.T) {
	r := New(func() map[string]int { return map[string]int{"a": 1, "b": 2} })
	done := make(chan bool)
	go func() { // a request
		if r.Lookup("a") != 1 {
			t.Error("lookup a")
		}
		done <- true
	}()
	time.Sleep(5 * time.Millisecond) // the request comes first
	if got := r.Size(); got != 2 {
		t.Errorf("size %d, want 2", got)
	}
	<-done
}
