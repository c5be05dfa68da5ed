package drvacquire_test

import (
	"testing"

	"subjects/drvacquire"
)

type counter struct{ n int }

func (c *counter) next() int { c.n++; return c.n }

// newConstructor is the tests' own helper, as puddle's createConstructor.
func newConstructor() (func() int, *counter) {
	var c counter
	return c.next, &c
}

func TestAcquire(t *testing.T) {
	ctor, _ := newConstructor()
	p := drvacquire.NewPool(ctor)
	res := p.Acquire()
	if res.Value() != 1 {
		t.Fatal(res.Value())
	}
	res.Use()
	res.Release()
}
