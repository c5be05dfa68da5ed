package a_test

import (
	"testing"

	"reachmod/a"
)

func TestExternal(t *testing.T) {
	c := a.NewCounter()
	c.Inc()
	if c.Get() != 1 {
		t.Fail()
	}
}
