package freshalloc

type point struct{ x, y int }

// Totals is shared by the workers.
type Totals struct {
	n int
}

// Keep holds a worker's last item variables, so that they escape.
type Keep struct {
	p *int
	s *point
	b []byte
}

// Work processes items 0..n-1 and adds their sum to t.
func Work(t *Totals, k *Keep, n int) {
	sum := 0
	for i := 0; i < n; i++ {
		p := new(int)
		*p = i
		s := &point{x: i}
		s.y = s.x + *p
		b := make([]byte, 2048)
		b[0] = byte(s.y)
		sum += int(b[0])
		k.p, k.s, k.b = p, s, b
	}
	t.n += sum // want "data race on "
}

// Sum is what Work adds for n items.
func Sum(n int) int {
	sum := 0
	for i := 0; i < n; i++ {
		sum += int(byte(2 * i))
	}
	return sum
}
