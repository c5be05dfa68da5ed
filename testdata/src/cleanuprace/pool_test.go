package cleanuprace

import (
	"runtime"
	"testing"
)

func TestReclaimed(t *testing.T) {
	p := NewPool()
	b1, b2 := p.Get(), p.Get()
	b1.data[0], b2.data[0] = 1, 2
	b1, b2 = nil, nil
	_, _ = b1, b2
	runtime.GC()
	<-p.Reclaim
	<-p.Reclaim
	if n := p.Freed(); n != 2 {
		t.Errorf("freed %d, want 2", n)
	}
}
