// Package raytracer is a small Go version of the Java Grande Forum
// "RayTracer" benchmark (PECAN Table 1; Penelope section 6): renderer
// goroutines each trace a band of rows of a scene of spheres and add the
// checksum of their pixels to the benchmark's checksum, which is validated
// at the end.
//
// Known bug: data race and atomicity violation (RWW) on Bench.checksum, "due
// to wrong synchronization" as Penelope puts it: like the Java original,
// which synchronized on the runner object itself, every Renderer locks its
// own mutex (r.mu) around the update of the shared checksum at
// raytracer.go:62. The locks are different, so the read and write of two
// renderers can interleave and one band's checksum is lost (TestRender
// fails: wrong checksum).
//
// go test -race flags it in a single run (no lock is common to both
// accesses).
package raytracer
