package rt

import (
	"strings"
	"sync"
	"testing"
	"unsafe"

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

// TestPoolRenews: a Put ends the life of the memory its item refers to
// (a pointer's target, a slice's array): the same addresses written after
// it are new objects, as after a free and an allocation; without a Put
// they stay the objects they were.
func TestPoolRenews(t *testing.T) {
	read := recordTo(t)
	p := &sync.Pool{}
	x := new(struct{ a, b int })
	s := make([]int, 4)
	W(unsafe.Pointer(&x.a), sWrite)
	W(unsafe.Pointer(&s[0]), sWrite)
	W(unsafe.Pointer(&x.b), sWrite) // before any Put: x.a keeps its object
	W(unsafe.Pointer(&x.a), sWrite)
	PoolPut(p, x, sLock)
	PoolPut(p, s[:0], sLock)
	s2 := PoolGet(p, sLock).([]int)[:1]
	y := PoolGet(p, sLock).(*struct{ a, b int })
	W(unsafe.Pointer(&y.a), sWrite)
	W(unsafe.Pointer(&s2[0]), sWrite)
	tr := read()
	var objs []int32
	for _, e := range tr.Events {
		if e.Op == trace.Write {
			objs = append(objs, e.Obj)
		}
	}
	if len(objs) != 6 {
		t.Fatalf("%d writes recorded, want 6: %s", len(objs), strings.Join(lines(tr), "; "))
	}
	if objs[0] != objs[3] {
		t.Errorf("x.a before the Put: objects %s and %s, want one", tr.Objects[objs[0]], tr.Objects[objs[3]])
	}
	if objs[4] == objs[0] {
		t.Errorf("x.a after its Put and Get is still %s", tr.Objects[objs[0]])
	}
	if objs[5] == objs[1] {
		t.Errorf("the slice's first element after its Put and Get is still %s", tr.Objects[objs[1]])
	}
}
