package gmapkey

import "testing"

func TestGolden(t *testing.T) {
	if v, empty := Keys(map[string]int{}, "b"); v != 0 || !empty {
		t.Errorf("Keys = %d, %v", v, empty)
	}
}
