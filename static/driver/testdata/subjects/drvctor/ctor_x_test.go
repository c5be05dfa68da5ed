package drvctor_test

import (
	"strings"
	"testing"

	"subjects/drvctor"
)

var key = strings.Repeat("x", 1) // a variable set from a call: the driver cannot copy it (a copy would be another variable)

func assertEqual(t *testing.T, want, got interface{}) {
	t.Helper()
	if want != got {
		t.Fatalf("want %v, got %v", want, got)
	}
}

func TestPut(t *testing.T) {
	p, _ := drvctor.NewPool(1)
	p.Put(key)
}

func TestCounter(t *testing.T) {
	c := drvctor.NewCounter()
	assertEqual(t, 0, c.Get())
	c.Inc()
}

func TestTimer(t *testing.T) {
	tm := drvctor.NewTimer("t")
	tm.Mark()
}
