package drvatomic

import "testing"

func TestConn(t *testing.T) {
	c := NewConn()
	if err := c.Write([]byte("ab")); err != nil {
		t.Fatalf("write: %v", err)
	}
	c.Close()
	if err := c.Write([]byte("c")); err != ErrClosed {
		t.Fatalf("write after close: %v, want ErrClosed", err)
	}
	if c.Len() != 2 {
		t.Fatalf("len %d, want 2", c.Len())
	}
}
