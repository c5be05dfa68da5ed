package maporder

import (
	"sort"
	"strings"
	"testing"
)

func TestKeys(t *testing.T) {
	m := map[string]int{}
	for _, k := range strings.Fields("q w e r t y u i o p a s d f g h j k l z x c v b n m") {
		m[k] = len(m)
	}
	got := Keys(m)
	t.Logf("order: %s", got)
	ks := strings.Fields(got)
	if len(ks) != len(m) {
		t.Errorf("Keys = %q", got)
	}
}

func TestSemantics(t *testing.T) {
	if n := Deleting(map[int]bool{1: true, 2: true, 3: true, 4: true}); n != 1 {
		t.Errorf("Deleting visited %d keys, want 1", n)
	}
	if !Adding(map[int]int{1: 1, 2: 2, 3: 3}) {
		t.Error("Adding: an old key visited twice or not at all")
	}
	if s := NaNs(); s != 7 {
		t.Errorf("NaNs = %v, want 7", s)
	}
	if n := Labeled(map[string][]int{"a": {1, 2}, "b": {3, -1, 50}}); n != 6 {
		t.Errorf("Labeled = %d, want 6", n)
	}
	if p := Pointers(); p != "abc" {
		t.Errorf("Pointers = %q", p)
	}
	if s := Sum(map[string]int{"a": 1, "b": 2}); s != 3 {
		t.Errorf("Sum = %d", s)
	}
	if n := Len(Set{"a": {}, "b": {}}); n != 2 {
		t.Errorf("Len = %d", n)
	}
	if n := Shadow(map[string]int{"ab": 1}); n != 3 {
		t.Errorf("Shadow = %d", n)
	}
	_ = sort.Strings
}
