// Package raytracerfixed is the fixed twin of package raytracer (Java Grande
// "RayTracer", PECAN Table 1).
//
// Fixed: the checksum is guarded by a mutex of the Bench, shared by all
// renderers, instead of each renderer's own mutex. Nothing should be
// reported.
package raytracerfixed
