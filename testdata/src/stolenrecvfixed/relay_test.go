package stolenrecvfixed

import "testing"

func TestUpper(t *testing.T) {
	if got := Upper("go"); got != "GO" {
		t.Errorf("Upper(%q) = %q, want %q", "go", got, "GO")
	}
}
