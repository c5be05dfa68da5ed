package foobarfixed

// Point is a point in the plane that is being placed.
type Point struct {
	X, Y   int
	placed chan struct{}
}

// NewPoint returns a point at (x, y) that Foo has yet to place.
func NewPoint(x, y int) *Point { return &Point{X: x, Y: y, placed: make(chan struct{})} }

// Foo places p1 on the line x = 10 (Figure 1, foo).
func Foo(p1 *Point) {
	p1.Y = p1.Y * 2
	p1.X = 10
	close(p1.placed)
}

// Bar returns the x coordinate of p2 once it is placed (Figure 1, bar).
func Bar(p2 *Point) int {
	<-p2.placed
	t := p2.X
	return t
}
