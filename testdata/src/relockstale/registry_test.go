package relockstale

import (
	"testing"
	"time"
)

func TestHas(t *testing.T) {
	var r Registry
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Load() // at startup
	}()
	time.Sleep(5 * time.Millisecond)
	if !r.Has("a") {
		t.Errorf("Has(a) = false, want true")
	}
	<-done
}
