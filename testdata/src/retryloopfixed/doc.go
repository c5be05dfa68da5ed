// Package retryloopfixed is retryloop fixed: Failure counts the failure
// and tells whether it tripped the breaker in one critical section.
//
// What is left is silent by design. The next try's Proceed reads the
// count at the top of the retry loop (retry.go:32) after the last try's
// Failure (retry.go:42) and another sender's: the loop has no condition
// of its own, and a round reads the count afresh before the point where
// it counts, as the first round did with no failure of its own before
// it, so the next round is a new unit and reads nothing back
// (static/depend's nextIteration; go-events' retry.go:167 av and
// bytedance's channel.go:353 av were this). Success's reset to 0
// (retry.go:54) after Proceed's test of the count, with another
// sender's Failure between, sets the count as it would be had that
// failure come first: Proceed's value was only tested, never kept or
// handed on (static/depend's lostWrite asks for a data use; go-cron's
// retry.go:259 av was this). Nothing should be reported.
package retryloopfixed
