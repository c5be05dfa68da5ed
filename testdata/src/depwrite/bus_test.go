package depwrite

import (
	"testing"
	"time"

	"subjects/depwrite/lg"
)

func TestPublish(t *testing.T) {
	before := lg.Warnings()
	var b Bus
	b.Subscribe(func(ev string) { lg.Warn("first handler: %s", ev) })
	b.Subscribe(func(ev string) {
		time.Sleep(5 * time.Millisecond)
		lg.Warn("second handler: %s", ev)
	})
	b.Publish("update")
	if n := lg.Warnings() - before; n != 2 {
		t.Errorf("warnings = %d, want 2", n)
	}
}
