package selectstuck

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
