package rt

import (
	"sync"
	"testing"

	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

const mwLock int32 = 2600 + iota // after select_test.go's 2500…

var _ = Register(mwLock, []Site{
	{Pos: "mw.go:1:1", Obj: "mu"},
	{Pos: "mw.go:2:1", Obj: "mu"},
	{Pos: "mw.go:3:1", Obj: "mu"},
})

// TestMutexWord: LockWord and UnlockWord record an atomic update of the
// mutex's word (marked as an addition: they commute among themselves),
// on the object a plain write of the whole mutex writes, so the two race.
func TestMutexWord(t *testing.T) {
	done := recordTo(t)
	mu := heap[sync.Mutex]()
	LockWord(mu, mwLock)
	UnlockWord(mu, mwLock+1)
	WV(mu, mwLock+2)
	*mu = sync.Mutex{}
	tr := done()
	var rmw, w []trace.Event
	for _, e := range tr.Events {
		switch e.Op {
		case trace.AtomicRMW:
			rmw = append(rmw, e)
		case trace.Write:
			w = append(w, e)
		}
	}
	if len(rmw) != 2 || len(w) != 1 {
		t.Fatalf("%d atomic updates and %d writes, want 2 and 1: %+v", len(rmw), len(w), tr.Events)
	}
	for _, e := range rmw {
		if e.Flags != trace.FlagAdd || e.Obj != w[0].Obj {
			t.Errorf("update %+v: want flag add, on the written object %d", e, w[0].Obj)
		}
	}
}
