package condleak

import (
	"testing"
	"time"
)

func TestCollectShort(t *testing.T) {
	produce := func(i int) (string, bool) { return "item", i != 1 }
	if got := Collect(3, produce, 20*time.Millisecond); len(got) > 2 {
		t.Errorf("Collect = %v, want at most 2 items", got)
	}
}
