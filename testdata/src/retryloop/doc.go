// Package retryloop is a Go idiom subject (pecanvet issue 26: docker's
// go-events RetryingSink and its Breaker): senders share a circuit
// breaker and retry in a loop that asks Proceed before each try and
// calls Failure after a failed one, through the Strategy interface.
//
// Known bug: atomicity violation (stale read-back, WWR) on
// Breaker.recent: Failure counts the failure (retry.go:41) in one
// critical section and reads the count back (retry.go:45) in a second
// one to tell whether its own failure tripped the breaker. Another
// sender's Failure between makes both read the threshold back, and the
// breaker is counted as tripped twice for two failures: `two failures
// tripped the breaker 2 times, want at most 1` (retry_test.go:38). The
// test's senders are 5 ms apart, so an ordinary run passes, and every
// access holds the mutex, so go test -race reports nothing.
//
// What the fixed twin keeps is silent by design: the next try's Proceed
// reads the count at the top of the loop (retry.go:32) after the last
// try's Failure and another sender's, a read each round makes afresh
// (static/depend's nextIteration), and Success's blind reset after
// Proceed's test of the count loses no failure that any value depends
// on (static/depend's lostWrite asks for a data use).
package retryloop
