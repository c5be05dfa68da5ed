// Package abba is the classic lock-order inversion (issue 29; Tu et al.'s
// study of blocking bugs in Go, ASPLOS 2019, counts two locks taken in
// opposite orders among the most common): Transfer locks the source
// account, then the target (bank.go:14, then bank.go:16). The test runs
// Transfer(alice, bob) and Transfer(bob, alice) in two goroutines; a
// time.Sleep keeps them apart, so an ordinary run passes.
//
// Known bug: lock-order inversion (deadlock). If each goroutine takes its
// source's lock (bank.go:14) before either takes its target's
// (bank.go:16), each waits for the lock the other holds: the test hangs
// for ever (the runtime reports "all goroutines are asleep" only if
// nothing else runs). go test -race sees nothing: there is no data race.
//
// pecanvet predicts the inversion from the recorded run's lock nesting
// and proves it by a replay that deadlocks with both goroutines blocked
// in bank.go:16.
package abba
