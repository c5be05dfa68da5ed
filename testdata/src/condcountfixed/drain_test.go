package condcountfixed

import (
	"testing"
	"time"
)

func TestDrain(t *testing.T) {
	produce := func(i int) []string {
		time.Sleep(time.Duration(20+40*i) * time.Millisecond) // the consumer waits first, even on a loaded machine
		if i == 2 {
			return nil // the last producer has nothing to give
		}
		return []string{"item"}
	}
	if got := Drain(3, produce, 2*time.Second); len(got) != 2 {
		t.Errorf("Drain = %v, want 2 items", got)
	}
}
