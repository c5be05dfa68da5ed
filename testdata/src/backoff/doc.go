// Package backoff is a Go idiom subject (pecanvet issue 26: docker's
// go-events ExponentialBackoff): senders share an atomic failure count;
// before each retry a sender waits longer the more failures there were
// (Delay), and Failure counts a failure and returns its number.
//
// Known bug: atomicity violation (RWW, atomics) on Backoff.failures:
// Failure loads the count (backoff.go:28) and adds 1 (backoff.go:29) in
// two atomic operations, and returns the load plus one as its failure's
// number, as if the add had replaced what it loaded. Another sender's
// Failure between gives both failures one number: `failure numbers [1]
// and [1], want one each, apart` (backoff_test.go:38). The test's
// senders are 5 ms apart, so an ordinary run passes, and every access is
// atomic, so go test -race reports nothing.
//
// The fixed twin returns what Add returns. What it keeps is silent by
// design: the next retry's Delay loads the count at the top of the loop
// (backoff.go:16) after the last Failure's add and another sender's, a
// read each round makes afresh (static/depend's nextIteration).
package backoff
