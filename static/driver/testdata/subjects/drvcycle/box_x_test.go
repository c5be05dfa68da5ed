package drvcycle_test

import (
	"testing"

	"subjects/drvcycle"
	"subjects/drvcycle/use"
)

func TestFilled(t *testing.T) {
	other := use.Filled(2)
	b := drvcycle.New()
	b.Inc()
	if other.Get() != 2 {
		t.Fatal(other.Get())
	}
}

func TestPlain(t *testing.T) {
	b := drvcycle.New()
	b.Inc()
	if b.Get() != 1 {
		t.Fatal(b.Get())
	}
}
