// Package resizebit is JCTools' MpscGrowableArrayQueue protocol (otter's
// MPSC): the producer index is twice the next slot, and a producer that
// resizes marks it odd (the resize bit) until it stores the index past
// its own slot.
//
// Known bug: atomicity violation (WRW) on Queue.idx. Grow CASes the even
// index i to i+1 (queue.go:20) and stores i+2 after the resize
// (queue.go:22); Next loads the index (queue.go:31) without testing the
// resize bit and CASes it on (queue.go:32): reading the odd i+1, it
// claims slot i/2, which is Grow's, and Grow's store then sets the index
// back (TestClaims: "slot 0 claimed twice" when Next's CAS falls before
// Grow's store). pecanvet reports it by dependence (intermediate state).
//
// The fixed twin's Next spins while the bit is set
// (`if i&1 == 1 { continue }`): the odd value only sends it back to read.
//
// go test -race flags nothing: every access is atomic.
package resizebit
