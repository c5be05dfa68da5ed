package bytestring

import (
	"testing"
	"time"
)

func TestString(t *testing.T) {
	l := New("cat")
	done := make(chan bool)
	go func() { // the editor
		l.Set(0, 'b')
		done <- true
	}()
	time.Sleep(10 * time.Millisecond) // the edit comes first
	if got := l.String(); got != "bat" {
		t.Errorf("text %q, want %q", got, "bat")
	}
	<-done
}

func TestExtend(t *testing.T) {
	l := New("cat")
	done := make(chan bool)
	go func() { // the editor
		l.Set(0, 'b')
		done <- true
	}()
	time.Sleep(10 * time.Millisecond) // the edit comes first
	if got := string(l.Extend("s")); got != "bats" {
		t.Errorf("text %q, want %q", got, "bats")
	}
	<-done
}
