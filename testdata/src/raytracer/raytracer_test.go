package raytracer

import (
	"sync"
	"testing"
	"time"
)

var scene = &Scene{W: 24, H: 16, Spheres: []Sphere{
	{X: 6, Y: 8, Z: 10, R: 5},
	{X: 15, Y: 7, Z: 8, R: 4},
	{X: 19, Y: 12, Z: 12, R: 3},
}}

func reference() int64 {
	var sum int64
	for y := range scene.H {
		for x := range scene.W {
			sum += int64(scene.Trace(x, y))
		}
	}
	return sum
}

func TestRender(t *testing.T) {
	b := &Bench{Scene: scene}
	top, bottom := b.NewRenderer(0, 8), b.NewRenderer(8, 16)

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		bottom.Run()
	}()
	top.Run()
	wg.Wait()

	if got, want := b.Checksum(), reference(); got != want {
		t.Errorf("checksum = %d, want %d", got, want)
	}
}
