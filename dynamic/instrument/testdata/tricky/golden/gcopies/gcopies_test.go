package gcopies

import "testing"

// keep makes the test's values escape to the heap: the recorder ignores
// the test goroutine's own stack.
var keep []any

func TestGolden(t *testing.T) {
	o := &Outer{Base: &Base{N: 2}}
	keep = append(keep, o)
	if got := Recv(&Base{N: 1}, o); got != 5 {
		t.Errorf("Recv = %d", got)
	}
	x := []Base{{N: 1}, {N: 2}}
	keep = append(keep, x)
	if got := Elems(x); len(got) != 3 || got[0].N != 1 {
		t.Errorf("Elems = %v", got)
	}
	b, r := []byte("ab"), []rune("c")
	keep = append(keep, b, r)
	if got := Strings(b[:2:2], r); got != "abcab!" {
		t.Errorf("Strings = %q", got)
	}
	i := 0
	if got := Reflect(&i, []byte("xyz")); got != 3 || i != 3 {
		t.Errorf("Reflect = %d", got)
	}
	p := []byte("abcd")
	keep = append(keep, p)
	if got := IO(p); got != 2 {
		t.Errorf("IO = %d", got)
	}
}
