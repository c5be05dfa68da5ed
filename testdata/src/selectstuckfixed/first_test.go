package selectstuckfixed

import (
	"testing"
	"time"
)

func TestFirst(t *testing.T) {
	fast := func() string { return "a" }
	slow := func() string { time.Sleep(5 * time.Millisecond); return "b" }
	if got := First([]func() string{fast, slow, slow}); got != "a" {
		t.Errorf("First = %q, want %q", got, "a")
	}
	time.Sleep(20 * time.Millisecond) // the slow fetchers have answered
}

func TestWatch(t *testing.T) {
	Notify("up")
	for i := 0; i < 100 && Seen() < 1; i++ {
		time.Sleep(time.Millisecond)
	}
}
