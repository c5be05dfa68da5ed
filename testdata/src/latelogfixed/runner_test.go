package latelogfixed

import (
	"testing"
	"time"
)

func TestScenario(t *testing.T) {
	var r Runner
	r.Run(t, []Step{{Name: "warmup", Do: func() string {
		time.Sleep(3 * time.Millisecond) // the subtest returns first
		return "ok"
	}}})
	if got := r.Wait(); got["warmup"] != "ok" {
		t.Errorf("results %v, want warmup: ok", got)
	}
}
