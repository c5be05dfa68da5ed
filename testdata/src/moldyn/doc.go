// Package moldyn is a small Go version of the Java Grande Forum "MolDyn"
// benchmark (PECAN Table 1 "Moldyn"): one force-evaluation step of a
// one-dimensional Lennard-Jones particle system, split between worker
// goroutines. Each worker computes the forces on its own particles and then
// adds its share of the potential energy and of the virial to the system
// totals, which the benchmark validates against a reference.
//
// Known bug: data races (and the lost updates they allow, atomicity
// violations RWW) on System.epot and System.vir. The reduction at
// moldyn.go:52 and moldyn.go:53 reads and writes the shared totals without
// synchronization. If two workers' reductions interleave, one worker's
// contribution is lost and the validation fails (TestStep: epot/vir differ
// from the reference).
//
// go test -race flags it in a single run.
//
// Expected: the data races and atomicity violations above are reported; the
// atomic-set-serializability violations between epot and vir change no value
// a worker goes on to use (each sum is only added to): interleavings without
// effect, shown with -v.
package moldyn
