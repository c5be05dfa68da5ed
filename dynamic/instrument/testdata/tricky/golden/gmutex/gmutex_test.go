package gmutex

import "testing"

func TestGolden(t *testing.T) {
	c := &Counter{}
	Twice(c)
	if c.n != 2 {
		t.Fatal(c.n)
	}
}
