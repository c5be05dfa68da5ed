package raytracer

import (
	"math"
	"sync"
)

// Sphere is a sphere seen head-on: center (X, Y, Z), radius R.
type Sphere struct{ X, Y, Z, R float64 }

// Scene is what is rendered: spheres in front of a W×H screen.
type Scene struct {
	W, H    int
	Spheres []Sphere
}

// Trace returns the brightness (0..255) of pixel (x, y): a ray parallel to
// the z axis is shaded by the nearest sphere it hits.
func (s *Scene) Trace(x, y int) int {
	px, py := float64(x)+0.5, float64(y)+0.5
	best, shade := math.Inf(1), 0
	for _, sp := range s.Spheres {
		dx, dy := px-sp.X, py-sp.Y
		d2 := sp.R*sp.R - dx*dx - dy*dy
		if d2 < 0 {
			continue
		}
		if z := sp.Z - math.Sqrt(d2); z < best {
			best, shade = z, int(255*math.Sqrt(d2)/sp.R)
		}
	}
	return shade
}

// Bench holds the scene and the checksum of the rendered image.
type Bench struct {
	Scene    *Scene
	checksum int64
}

// Renderer renders rows [Lo, Hi) of the bench's scene.
type Renderer struct {
	mu     sync.Mutex
	bench  *Bench
	Lo, Hi int
}

// NewRenderer returns a renderer of rows [lo, hi).
func (b *Bench) NewRenderer(lo, hi int) *Renderer {
	return &Renderer{bench: b, Lo: lo, Hi: hi}
}

// Run renders the rows and adds their checksum to the bench.
func (r *Renderer) Run() {
	var sum int64
	for y := r.Lo; y < r.Hi; y++ {
		for x := range r.bench.Scene.W {
			sum += int64(r.bench.Scene.Trace(x, y))
		}
	}
	r.mu.Lock()
	r.bench.checksum += sum // want "data race on " "atomicity violation on Bench\\.checksum"
	r.mu.Unlock()
}

// Checksum returns the checksum of what has been rendered.
func (b *Bench) Checksum() int64 { return b.checksum }
