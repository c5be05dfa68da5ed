package foobar

// Point is a point in the plane.
type Point struct{ X, Y int }

// Foo places p1 on the line x = 10 (Figure 1, foo).
func Foo(p1 *Point) {
	p1.Y = p1.Y * 2
	p1.X = 10 // want "data race on Point\\.X"
}

// Bar returns the x coordinate of p2 (Figure 1, bar).
func Bar(p2 *Point) int {
	t := p2.X
	return t
}
