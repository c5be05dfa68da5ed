package ctxafterfunc

import (
	"context"
	"testing"
	"time"
)

func TestClose(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := Dial(ctx, "db:5432")
	cancel()
	time.Sleep(100 * time.Millisecond) // "the callback has run by then"
	if !c.Closed() {
		t.Errorf("conn not closed after cancel")
	}
}
