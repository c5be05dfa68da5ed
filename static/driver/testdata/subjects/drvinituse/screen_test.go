package drvinituse

import "testing"

func mkScreen(t *testing.T) Screen {
	s := NewSim()
	if s == nil {
		t.Fatal("no screen")
	}
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestResize(t *testing.T) {
	s := mkScreen(t)
	s.Resize(10, 10)
	s.Fini()
}

func TestFini(t *testing.T) {
	s := NewSim()
	s.Init()
	s.Fini()
}

func TestGrid(t *testing.T) {
	g := NewGrid()
	g.Init(4)
	g.Set(1, 2)
	g.Init(8)
	g.Set(7, 1)
}
