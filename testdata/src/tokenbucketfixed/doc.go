// Package tokenbucketfixed is tokenbucket fixed: Recv tells whether its
// take emptied the bucket from what its own AddInt32 returns
// (bucket.go:31), one atomic step.
//
// What is left is silent by design, and is smux's recvLoop itself. The
// next round's wait tests the bucket (bucket.go:24) after the last
// round's take (bucket.go:31) and a reader's Return between: that test
// is the token bucket's design, made afresh at the top of each round of
// a loop with no condition of its own, as the first round made it with
// no take of its own before it, so the next round is a new unit and
// reads nothing back (static/depend's nextIteration). The wait loop is
// the round's first statement, so go/ssa's jump threading removed the
// for {}'s header and its back edge lands on the wait loop's header;
// before static/depend's outerRound that edge was taken for a round of
// the wait loop, within one unit (smux's session.go:531 av of session
// 45's trial 27 was this). Nothing should be reported.
package tokenbucketfixed
