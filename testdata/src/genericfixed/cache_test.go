package genericfixed

import (
	"testing"
	"time"
)

func TestGet(t *testing.T) {
	c := New[string, int]()
	done := make(chan bool)
	go func() {
		c.Put("a", 1)
		done <- true
	}()
	time.Sleep(5 * time.Millisecond) // the Put comes first
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Errorf("Get = %d, %v; want 1, true", v, ok)
	}
	<-done
}
