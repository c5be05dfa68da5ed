package gnamedret

import "testing"

func TestGolden(t *testing.T) {
	if a, b := Same(); a != 1 || b != 10 {
		t.Errorf("Same = %d, %d", a, b)
	}
	if a, b := Swapped(); a != 2 || b != 1 {
		t.Errorf("Swapped = %d, %d", a, b)
	}
}
