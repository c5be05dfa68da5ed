package wgleak

import (
	"errors"
	"testing"
	"time"
)

func TestFlushFailure(t *testing.T) {
	send := func(it string) error {
		if it == "bad" {
			return errors.New("send failed")
		}
		return nil
	}
	if err := Flush([]string{"a", "bad", "b"}, send, 20*time.Millisecond); err == nil {
		t.Error("Flush of a failing batch = nil, want an error")
	}
}
