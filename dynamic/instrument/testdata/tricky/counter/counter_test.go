package counter

import (
	"os"
	"testing"
)

func TestRun(t *testing.T) {
	c := New()
	Run(c, 4, 25)
	if got := c.Get(); got != 100 {
		t.Fatalf("got %d, want 100", got)
	}
	if len(c.hist) != 100 || c.hist[99] != 100 {
		t.Errorf("hist %d", len(c.hist))
	}
}

func TestAdd(t *testing.T) {
	c := New()
	c.Add("a", 2)
	if v := c.Add("a", 3); v != 5 {
		t.Errorf("got %d", v)
	}
}

func TestFailsOnPurpose(t *testing.T) {
	if os.Getenv("PECANVET_CORPUS_FAIL") != "" {
		t.Errorf("failing on purpose: %d", New().Get())
	}
}

func TestSkipped(t *testing.T) {
	t.Skip("skipped on purpose")
}
