package drvimport_test

import (
	"testing"

	"subjects/drvimport"
	"subjects/ledger"
)

func TestInc(t *testing.T) {
	l := ledger.NewLedger(1)
	b := drvimport.New()
	if l.Balance() != 1 {
		t.Fatal(l.Balance())
	}
	b.Inc()
}
