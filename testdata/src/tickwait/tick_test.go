package tickwait

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

func TestGetBeforeRefresh(t *testing.T) {
	var ret atomic.Value
	ret.Store("old")
	var calls atomic.Int64
	c := New(func() (string, error) {
		if calls.Add(1) == 1 {
			return ret.Load().(string), errors.New("source degraded")
		}
		return ret.Load().(string), nil
	}, 100*time.Millisecond)
	defer c.Close()
	<-time.After(50 * time.Millisecond)
	ret.Store("new")
	if got, _ := c.Get(); got != "old" {
		t.Errorf("Get = %q before the refresh is due, want %q", got, "old")
	}
	<-time.After(100 * time.Millisecond)
	if got, err := c.Get(); got != "new" || err != nil {
		t.Errorf("Get = %q, %v after the refresh, want %q, nil", got, err, "new")
	}
}
