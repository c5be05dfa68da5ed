// Package capcheckfixed is capcheck fixed: TryAcquire checks and takes a
// slot in one critical section. What is left is silent by design: the
// statistics counter attempts is incremented under the lock by count,
// which TryAcquire calls twice; another TryAcquire's count can fall
// between the two (an atomicity violation on Limiter.attempts that replay
// reproduces), but no value read by the first increment is used by the
// second, so it is an interleaving without effect. Nothing should be
// reported.
package capcheckfixed
