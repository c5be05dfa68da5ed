package ioread

import (
	"strings"
	"testing"
	"time"
)

func TestPeek(t *testing.T) {
	l := &Loader{buf: make([]byte, 4)}
	done := make(chan bool)
	go func() { // the loader
		l.Load(strings.NewReader("data"))
		done <- true
	}()
	time.Sleep(10 * time.Millisecond) // the load comes first
	if got := l.Peek(); got != 'd' {
		t.Errorf("peek %q, want 'd'", got)
	}
	<-done
}
