package lostsignalfixed

import (
	"testing"
	"time"
)

func TestPutTake(t *testing.T) {
	m := NewMailbox()
	done := make(chan string)
	go func() { done <- m.Take() }()
	time.Sleep(50 * time.Millisecond) // the message comes a little later (long enough for Take to wait, even on a loaded machine)
	m.Put("hello")
	if got := <-done; got != "hello" {
		t.Errorf("Take = %q, want hello", got)
	}
}
