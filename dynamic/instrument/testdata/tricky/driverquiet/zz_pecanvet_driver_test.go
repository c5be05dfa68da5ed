package driverquiet

import (
	"testing"
	"time"
)

// pecanvetQuiet is the generated driver's stub (static/driver).
func pecanvetQuiet(end time.Time, done chan struct{}) <-chan struct{} { return nil }

// pecanvetReplaying is the generated driver's stub (static/driver).
func pecanvetReplaying() bool { return false }

func TestAcquireRelease(t *testing.T) {
	s := New()
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Acquire()
		s.Release()
	}()
	select {
	case <-done:
	case <-pecanvetQuiet(time.Now().Add(time.Second), done):
		t.Fatal("quiet while the calls return")
	}
	if pecanvetReplaying() {
		t.Fatal("replaying in a recording")
	}
}
