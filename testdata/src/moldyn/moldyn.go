package moldyn

const cutoff2 = 6.25 // squared cutoff radius

// System is a set of particles on a line.
type System struct {
	pos   []float64
	force []float64
	epot  float64 // potential energy
	vir   float64 // virial
}

// NewLattice returns n particles spaced by a.
func NewLattice(n int, a float64) *System {
	s := &System{pos: make([]float64, n), force: make([]float64, n)}
	for i := range s.pos {
		s.pos[i] = float64(i) * a
	}
	return s
}

// forces computes the forces on particles [lo, hi) and returns their
// contribution to the potential energy and the virial.
func (s *System) forces(lo, hi int) (epot, vir float64) {
	for i := lo; i < hi; i++ {
		f := 0.0
		for j, xj := range s.pos {
			if j == i {
				continue
			}
			r := xj - s.pos[i]
			r2 := r * r
			if r2 > cutoff2 {
				continue
			}
			ir6 := 1 / (r2 * r2 * r2)
			ff := 24 * (2*ir6*ir6 - ir6) / r2
			f -= ff * r
			epot += 2 * (ir6*ir6 - ir6) // half of 4(r^-12 - r^-6): each pair is seen twice
			vir += ff * r2 / 2
		}
		s.force[i] = f
	}
	return epot, vir
}

// Worker runs worker id of n: it computes its share of the step and adds
// it to the totals.
func (s *System) Worker(id, n int) {
	lo, hi := id*len(s.pos)/n, (id+1)*len(s.pos)/n
	ep, vr := s.forces(lo, hi)
	s.epot += ep // want "data race on " "atomicity violation on System\\.epot"
	s.vir += vr  // want "data race on "
}

// Totals returns the potential energy and the virial.
func (s *System) Totals() (epot, vir float64) { return s.epot, s.vir }

// Reference computes the totals of a step sequentially, in the same order
// of floating-point operations as n workers.
func Reference(n, workers int, a float64) (epot, vir float64) {
	s := NewLattice(n, a)
	for id := range workers {
		ep, vr := s.forces(id*n/workers, (id+1)*n/workers)
		epot += ep
		vir += vr
	}
	return epot, vir
}
