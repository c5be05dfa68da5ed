package lenpoll

import "testing"

func TestLoad(t *testing.T) {
	if got := Start("ab").Wait(); got != "ababab" {
		t.Errorf("Wait() = %q, want %q", got, "ababab")
	}
}
