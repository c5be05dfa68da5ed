package selectclose

import (
	"testing"
	"time"
)

func TestPostAfterClose(t *testing.T) {
	m := New()
	posted := make(chan bool)
	go func() {
		time.Sleep(5 * time.Millisecond)
		posted <- m.Post("hi")
	}()
	left := m.Close()
	if ok := <-posted; ok || len(left) != 0 {
		t.Errorf("Post = %v, left over %q; want false, none: the mailbox was closed first", ok, left)
	}
}
