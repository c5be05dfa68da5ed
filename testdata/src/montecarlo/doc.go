// Package montecarlo is a small Go version of the Java Grande Forum
// "MonteCarlo" benchmark (PECAN Table 1): simulation tasks, each with its
// own seeded generator, are run by worker goroutines; each task estimates
// the probability that a random walk of asset returns ends above its start,
// and the workers add their task results to shared totals that are validated
// against a sequential run.
//
// Known bug: data race (and the lost update it allows, an atomicity
// violation RWW) on Sim.ups and Sim.paths. Worker adds its results to the
// shared counters at montecarlo.go:36 and montecarlo.go:37 with plain
// read-modify-writes. If two workers' updates interleave, a task's result is
// lost (TestSimulate fails: the totals differ from the sequential run).
//
// go test -race flags it in a single run.
//
// Expected: the data races and atomicity violations above are reported; the
// atomic-set-serializability violations between ups and paths change no
// value a worker goes on to use (each total is only added to): interleavings
// without effect, shown with -v.
package montecarlo
