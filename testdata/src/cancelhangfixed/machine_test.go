package cancelhangfixed

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
	select {
	case <-done:
	case <-ctx.Done():
	}
	if got := m.State(); got != "end" && got != "start" {
		t.Errorf("state = %q", got)
	}
}
