package drvnosetup

import "testing"

func TestRun(t *testing.T) {
	if got := Run(2); got != 2 {
		t.Fatal(got)
	}
}
