package bigcopyfirst

import (
	"runtime"
	"testing"
)

func TestRedraw(t *testing.T) {
	// One P: the goroutine Redraw starts runs once Redraw waits, after
	// the copy, as on a busy machine.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	Redraw()
}
