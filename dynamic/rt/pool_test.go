package rt

import (
	"sync"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// TestPoolStack: recorded, a Pool is a stack of at most poolCap items,
// each Get and Put one recorded critical section, and New runs only
// when it is empty.
func TestPoolStack(t *testing.T) {
	read := recordTo(t)
	news := 0
	p := &sync.Pool{New: func() any { news++; return -1 }}
	for i := 0; i < poolCap+6; i++ {
		PoolPut(p, i, sLock)
	}
	PoolPut(p, nil, sLock) // dropped, as Put drops nil
	var got []any
	for i := 0; i < poolCap+1; i++ {
		got = append(got, PoolGet(p, sLock))
	}
	tr := read()
	if got[0] != poolCap+5 || got[poolCap-1] != 6 || got[poolCap] != -1 || news != 1 {
		t.Errorf("Gets = %v … %v, New ran %d times: want %d … 6, then New once", got[0], got[poolCap-1:], news, poolCap+5)
	}
	locks := 0
	for _, e := range tr.Events {
		if e.Op == trace.Lock {
			locks++
		}
	}
	if want := 2*poolCap + 7; locks != want {
		t.Errorf("%d lock events, want %d (one per Put of an item and per Get)", locks, want)
	}
}

// TestPoolEmptyAtTraceStart: a trace starts with the pools empty, as its
// replay's process does: an item an earlier test Put is not there for the
// next test's Get.
func TestPoolEmptyAtTraceStart(t *testing.T) {
	p := &sync.Pool{New: func() any { return "new" }}
	read := recordTo(t)
	PoolPut(p, "item", sLock)
	read()
	read = recordTo(t)
	got := PoolGet(p, sLock)
	read()
	if got != "new" {
		t.Errorf("Get in the next trace returned %v, want New's value", got)
	}
}
