package cancelhang

import (
	"context"
	"errors"
	"testing"
)

func TestFireCancelled(t *testing.T) {
	done := make(chan struct{})
	m := New(func(ctx context.Context) {
		go func() {
			<-ctx.Done()
			close(done)
		}()
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		cancel()
	}()
	if err := m.Fire(ctx, "end"); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("Fire: %v", err)
	}
	<-done // want "goroutine g1\\.1 blocked forever in chan receive at machine_test\\.go:24: every goroutine is blocked \\(deadlock, observed in a recorded run\\); reproduced"
	if got := m.State(); got != "end" && got != "start" {
		t.Errorf("state = %q", got)
	}
}
