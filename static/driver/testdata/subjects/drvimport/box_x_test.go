package drvimport_test

import (
	"testing"

	"subjects/drvimport"
	"subjects/ledger"
)

// first is set from a constant and never again: copied with the setup.
var first = 1

func TestInc(t *testing.T) {
	l := ledger.NewLedger(first)
	b := drvimport.New()
	if l.Balance() != 1 {
		t.Fatal(l.Balance())
	}
	b.Inc()
}
