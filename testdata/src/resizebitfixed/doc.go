// Package resizebitfixed is resizebit fixed: Next tests the resize bit
// (queue.go:32) and loads the index again while it is set, as otter's
// MPSC TryPush does. Another goroutine's load between Grow's CAS to the
// odd index (queue.go:20) and its store of the next even one
// (queue.go:22) only spins; what Next uses is a later, even index.
// Nothing should be reported.
//
// pecanvet's dependence criterion (static/depend/spin.go: the parity of
// Grow's i+1, with i tested even, takes the spin edge) keeps quiet here;
// without that rule it reports an intermediate state on Queue.idx.
package resizebitfixed
