// Package condcount is a lost condition-variable signal (issue 29) in a
// producer/consumer that counts its producers: Drain's consumer waits on
// c while the queue is empty and producers are left (drain.go:34-35);
// each producer appends its items under the lock (drain.go:23) but counts
// itself finished with an atomic outside it (drain.go:25), then signals
// (drain.go:26). The test's last producer has nothing to give, and the
// producers sleep first, so in an ordinary run the consumer waits before
// each signal and the test passes.
//
// Known bug: deadlock (a lost wake-up). The count is the consumer's
// condition but is not written under the Cond's lock: the consumer can
// read it (one producer left) just before the last producer counts
// itself and signals, and then wait; the signal came before the Wait and
// is lost, and nothing else will signal. Drain gives up after d and
// returns nil; the consumer stays blocked in drain.go:35. go test -race
// sees nothing: the count is atomic.
//
// pecanvet predicts it from the recorded run (the last producer's signal,
// which woke the last Wait, can come before that Wait's entry; nothing
// signals the Cond after it) and proves it by a replay that ends with the
// consumer blocked in drain.go:35 once nothing moves.
package condcount
