// Package panicky panics at known lines.
package panicky

type pt struct{ x, y int }

var calls int

func next() int { calls++; return calls }

// Store assigns through p with a right-hand side spread over lines.
func Store(p *pt) int {
	p.x = next() +
		next()
	return p.x
}

// Index indexes out of range after moved code.
func Index(s []int, i int) int {
	s[0], s[1] = s[1], next()
	return s[i]
}
