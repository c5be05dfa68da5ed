package gsyncmap

import "testing"

func TestGolden(t *testing.T) {
	if n, v := Ops(); n != 1 || v != 7 {
		t.Errorf("Ops = %d, %d", n, v)
	}
	if got := Once(); got != 84 {
		t.Errorf("Once = %d", got)
	}
}
