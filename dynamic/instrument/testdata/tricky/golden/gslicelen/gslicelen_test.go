package gslicelen

import "testing"

func TestGolden(t *testing.T) {
	if q := Stores(); len(q.items) != 3 || q.items[0] != 9 || len(q.named) != 1 || len(global) != 5 || q.n != 2 {
		t.Errorf("Stores = %v", q)
	}
}
