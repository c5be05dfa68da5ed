package ctxafterfuncfixed

import (
	"context"
	"testing"
)

func TestClose(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := Dial(ctx, "db:5432")
	cancel()
	c.Wait()
	if !c.Closed() {
		t.Errorf("conn not closed after cancel")
	}
}

func TestDetach(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := Dial(ctx, "db:5432")
	if !c.Detach() {
		t.Fatalf("detach came too late")
	}
	cancel()
	if c.Closed() {
		t.Errorf("detached conn closed")
	}
}
