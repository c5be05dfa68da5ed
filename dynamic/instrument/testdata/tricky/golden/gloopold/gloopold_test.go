package gloopold

import "testing"

func TestGolden(t *testing.T) {
	if got := Names([]string{"a", "b"}); got[0] != "a" || got[1] != "b" {
		t.Errorf("Names = %v", got)
	}
}
