// Package order depends on the order in which an assignment evaluates its
// operands (as gc does it), and on what panics first.
package order

import "fmt"

// S has a field.
type S struct{ x int }

var (
	gi int
	ga = []int{0, 0, 0}
)

var calls int

func call() int { calls++; return 1 }

// Order returns what each assignment did.
func Order() string {
	a := []int{0, 0, 0}
	i := 0
	f := func() int { i = 2; return 7 }
	a[i] = f()

	gi = 0
	g := func() int { gi = 1; ga = []int{5, 5, 5}; return 9 }
	ga[gi] = g()

	p := &S{}
	q := &S{}
	h := func() int { p = q; return 3 }
	p.x = h()

	m := map[int]int{}
	k := 0
	mm := func() int { k = 5; return 1 }
	m[k] = mm()

	b := []int{1, 2, 3}
	j := 0
	b[j], j = 10, 2

	c := []int{1, 2, 3}
	n := 0
	inc := func() int { n++; return n }
	c[n] += inc()

	return fmt.Sprint(a, ga, p == q, q.x, m, b, j, c)
}

// NilStore stores through a nil pointer after a call.
func NilStore() (calledFirst bool, err any) {
	calls = 0
	defer func() {
		err = recover()
		calledFirst = calls == 1
	}()
	var np *S
	np.x = call()
	return
}
