// Package gslicelen stores slices in shared slice-typed variables. A
// plain store v = s records the stored slice's length (len=N), in the
// block form (a right-hand side with a call or a recorded read, held in
// a temporary) and the inline one (nil, a local variable); a store of
// a slice element, or of another type, records none.
package gslicelen

type ints []int

type queue struct {
	items []int
	named ints
	n     int
}

var global []string

func pop(s []int) (int, []int) { return s[0], s[1:] }

// Stores runs the stores in a goroutine; q is shared with it.
func Stores() *queue {
	q := &queue{}
	done := make(chan bool)
	go func() {
		q.items = append(q.items, 1)    // len=1
		q.items = append(q.items, 2, 3) // len=3
		q.items = q.items[1:]           // len=2
		q.items = nil                   // len=0
		local := []int{4, 5, 6, 7}
		q.items = local              // len=4
		q.n, q.items = pop(local)    // len=3
		q.named = append(q.named, 1) // len=1
		global = make([]string, 5)   // len=5
		q.items[0] = 9               // an element: no len
		q.n = 2                      // an int: no len
		done <- true
	}()
	<-done
	return q
}
