package cg

import "testing"

func TestCgo(t *testing.T) {
	Add(1)
	if Twice(2) != 4 || Total != 5 {
		t.Error(Total)
	}
}

func TestLen(t *testing.T) {
	if Len("abc") != 3 {
		t.Error("len")
	}
}
