package closelog

import (
	"testing"
	"time"
)

func TestLogThenClose(t *testing.T) {
	l := New()
	go l.Log("hello")
	time.Sleep(5 * time.Millisecond)
	out := l.Close()
	if len(out) == 0 || out[len(out)-1] != "closed" {
		t.Errorf("logged %q, want the closing line last", out)
	}
}
