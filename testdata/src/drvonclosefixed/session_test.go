package drvonclosefixed

import "testing"

func TestClose(t *testing.T) {
	s := Open()
	n := 0
	s.OnClose(func() { n++ })
	s.Close()
	s.Close()
	<-s.Done()
	if n != 1 {
		t.Fatalf("callback called %d times, want 1", n)
	}
}
