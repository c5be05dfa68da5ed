// Package stopfrozen is a real-module subject (pecanvet issue 26, session
// 32, branch ants; ants v2 before its issue 113, small and unbounded):
// Submit checks IsClosed on a fast path (pool.go:79), then retrieve
// takes an idle worker from the stack under the lock (pool.go:38), or
// starts one when the stack is empty; Release CASes the state to closed
// (pool.go:116) and resets the stack under the lock (pool.go:60). A
// worker puts itself back into the stack after its task (revert) with
// no look at the state.
//
// Known bug: an atomic-set violation (pattern 11) on {Pool.state,
// stack.items}: a Submit that read "open" before Release finds the stack
// reset, starts a worker for its task, and that worker puts itself into
// the reset stack after Release: nothing will end it (a goroutine leak
// per overlapping Submit; ants's issue 113, fixed there by revert's
// re-check under the lock). The test asserts nothing; reported by the
// dependence criterion: the value read at pool.go:79 decides the call of
// Pool.retrieve that reads the stack. static/depend's stopFrozen, which
// silences stopfrozenfixed, needs every grow of the stack to re-check
// the flag under the lock Release resets it under; revert's insert here
// does not.
//
// go test -race flags nothing: the state is atomic, the stack locked.
package stopfrozen
