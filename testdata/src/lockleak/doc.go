// Package lockleak is a goroutine leak that the recorded run itself shows
// (goleak's finding; issue 29), in a Mutex's Lock: Gather reads every
// source from its own goroutine, each appending its items under a mutex
// (gather.go:21 Lock, gather.go:28 Unlock), and waits at most d for all
// of them (gather.go:36). A source's error makes its goroutine return
// holding the mutex (gather.go:25).
//
// Known bug: goroutine leak (a lock never released). Every source that
// comes after the failed one blocks forever in Lock (gather.go:21), and
// Gather reports a timeout. go test -race sees nothing: there is no data
// race, and the test passes.
//
// pecanvet's recorder notes the Lock the late source was blocked in when
// the test ended; the mutex is local to Gather, used only through its
// methods, and every goroutine that can unlock it (Gather's own, the
// other sources) has ended or is blocked in the same Lock
// (check/observedsync.go). A replay of the recorded order proves it.
package lockleak
