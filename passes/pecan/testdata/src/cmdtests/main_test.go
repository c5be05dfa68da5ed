package main

import "testing"

func TestSum(t *testing.T) {
	if sum() != 1 {
		t.Fatal("sum")
	}
}
