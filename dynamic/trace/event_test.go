package trace

import "testing"

// TestKeysApart checks the map element rule: only two keyed plain accesses
// with different keys are apart; the whole map (key 0) is apart from none.
func TestKeysApart(t *testing.T) {
	r := func(k int64) Event { return Event{Op: Read, Arg: k} }
	w := func(k int64) Event { return Event{Op: Write, Arg: k} }
	for _, c := range []struct {
		a, b Event
		want bool
	}{
		{r(1), w(2), true},
		{w(-5), w(7), true},
		{r(3), w(3), false}, // the same element (or a hash collision: one element)
		{r(0), w(3), false}, // len or range of the map
		{w(0), r(9), false}, // clear
		{r(0), r(0), false}, // whole map both
		{Event{Op: AtomicLoad, Arg: 0}, w(4), false},
		{Event{Op: Send, Arg: 1}, Event{Op: Recv, Arg: 2}, false}, // capacities, not keys
	} {
		if got := KeysApart(c.a, c.b); got != c.want {
			t.Errorf("KeysApart(%v %d, %v %d) = %v, want %v", c.a.Op, c.a.Arg, c.b.Op, c.b.Arg, got, c.want)
		}
		if got := KeysApart(c.b, c.a); got != c.want {
			t.Errorf("KeysApart is not symmetric on %v %d, %v %d", c.a.Op, c.a.Arg, c.b.Op, c.b.Arg)
		}
	}
}
