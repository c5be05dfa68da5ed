package stopclose

import (
	"testing"
	"time"
)

func TestUpdateThenStop(t *testing.T) {
	f := New()
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		f.Update(7)
	}()
	time.Sleep(5 * time.Millisecond)
	f.Stop()
	<-sent
	if got := f.Last(); got != 7 {
		t.Errorf("Last() = %d, want 7", got)
	}
}
