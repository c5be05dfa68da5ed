package drvend

import "testing"

func TestCache(t *testing.T) {
	c := NewCache()
	c.Get(1)
	c.Pause()
	c.Close()
}

func TestAllocator(t *testing.T) {
	p := NewAllocatorPool(1)
	a := p.Get(16)
	a.Allocate(4)
	p.Put(a)
	p.Get(16).Allocate(2)
}

func TestMeter(t *testing.T) {
	m := &Meter{}
	m.Mark()
	Restart(m).Mark()
}

func TestWindow(t *testing.T) {
	r := &Roller{cur: &Window{}}
	r.cur.Add()
	r.Roll().Add()
}

func TestCollector(t *testing.T) {
	c := NewCollector()
	c.Visit("a")
}

func TestSession(t *testing.T) {
	s := &Session{vals: map[string]int{}}
	s.Set("a", 1)
	Reopen(s).Set("b", 2)
}
