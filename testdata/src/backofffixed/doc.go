// Package backofffixed is backoff fixed: Failure returns the count its
// own Add returns (backoff.go:28), one atomic step.
//
// What is left is silent by design. The next retry's Delay loads the
// count (backoff.go:16) at the top of Send's loop, a loop with no
// condition of its own, after the last round's Failure added to it and
// another sender's Failure added too: the round reads the count afresh
// before the point where it adds, as the first round would with no add
// of its own before it, so the next round is a new unit and reads
// nothing back (static/depend's nextIteration; go-events' retry.go:224
// av was this). The load only sizes the wait: it is not handed on as
// the value an add replaced (static/depend's lostWrite; go-events'
// retry.go:214 "stale result"). Nothing should be reported.
package backofffixed
