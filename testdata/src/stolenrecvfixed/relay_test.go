package stolenrecvfixed

import "testing"

func TestUpper(t *testing.T) {
	if got := Upper("go"); got != "GO" {
		t.Errorf("Upper(%q) = %q, want %q", "go", got, "GO")
	}
}

func TestUpperLoop(t *testing.T) {
	if got := UpperLoop("go"); got != "GO" {
		t.Errorf("UpperLoop(%q) = %q, want %q", "go", got, "GO")
	}
}
