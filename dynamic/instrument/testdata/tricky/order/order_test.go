package order

import "testing"

func TestOrder(t *testing.T) {
	if got, want := Order(), "[0 0 7] [5 9 5] true 3 map[5:1] [10 2 3] 2 [1 3 3]"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestNilStore(t *testing.T) {
	called, err := NilStore()
	if !called || err == nil {
		t.Error(called, err)
	}
}
