package rangeleak

import "testing"

func TestStoreEmpty(t *testing.T) {
	var got []string
	err := Store([]string{"a", "", "b"}, func(r string) { got = append(got, r) })
	if err != errEmpty {
		t.Errorf("Store = %v, want %v", err, errEmpty)
	}
}
