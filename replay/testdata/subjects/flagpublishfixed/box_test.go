package flagpublishfixed

import (
	"testing"
	"time"
)

func TestPublishGet(t *testing.T) {
	b := &Box{}
	done := make(chan bool)
	go func() { b.Publish(42); done <- true }()
	time.Sleep(5 * time.Millisecond)
	if v, ok := b.Get(); ok && v != 42 {
		t.Errorf("Get = %d, want 42", v)
	}
	<-done
}
