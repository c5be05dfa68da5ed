package plainleakfixed

import (
	"testing"
	"time"
)

func TestFirst(t *testing.T) {
	echo := func(q string) string { return q }
	if got := First("q", echo, echo); got != "q" {
		t.Errorf("First = %q, want q", got)
	}
}

func TestApplyEmpty(t *testing.T) {
	var applied []string
	err := Apply([]string{"a", "", "b"}, func(c string) { applied = append(applied, c) }, func() {})
	if err != errEmpty || len(applied) != 1 {
		t.Errorf("Apply = %v after %d changes, want %v after 1", err, len(applied), errEmpty)
	}
}

func TestKick(t *testing.T) {
	Kick()
	Kick()
	for i := 0; i < 100 && flushes.Load() < 2; i++ {
		time.Sleep(time.Millisecond)
	}
}
