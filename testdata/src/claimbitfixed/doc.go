// Package claimbitfixed is JCTools' MpscGrowableArrayQueue index protocol
// (otter's MPSC): a producer claims the next slot by CASing the even
// producer index i to i+1 (odd while it fills the slot) and stores i+2;
// the one consumer compares its own index, always even, with the
// producer index to tell an empty queue, and otherwise waits for the
// slot to be filled.
//
// The fixed twin of claimbit. Its bug: atomicity violation (WRW) on
// Queue.idx. Push validates its
// count after the claim (claimbit's queue.go:38) and, rejecting it, stores i back
// (queue.go:42): a Pop that loads the index between the two writes
// (queue.go:55) reads the odd i+1 as an item pushed, and waits for a
// slot no one fills (TestPushPop: "pop: a claimed slot is never filled"
// when the second Pop's load falls inside the rejected Push). The
// values before and after the claim are one (i), and the queue is empty
// in both serial orders.
//
// Here Push rejects the count before claiming (queue.go:23): every claim ends
// with i+2, so the odd value, never equal to the consumer's even index,
// says "not empty" as i+2 does (static/depend/unequal.go). A recording
// that catches Pop's index load between a claim and its end gives
// atomic-set instances on the index and the slot (asv-9, -10, -12, -13,
// -14) that replay: the odd index Pop read is one it cannot tell from
// the claim's end, so the claim's fill and end count as before it
// (static/depend's claimKept, claimAfter), and a nil slot read before
// the fill, in Pop's wait, went round the loop (retried: the replay's
// trace shows Pop reading the slot again, or its bound's panic, not the
// exit's take), a later read finding the slot filled.
//
// go test -race flags nothing: every access is atomic.
package claimbitfixed
