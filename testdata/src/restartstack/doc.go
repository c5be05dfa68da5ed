// Package restartstack is a real-module subject (pecanvet issue 26,
// session 51; amirylm/lockfree v0.0.4's LLStack): a lock-free stack
// whose Push links a new node to the head it loaded and stores the node
// as the head, with a plain atomic Store where restartstackfixed's round
// has its CompareAndSwap.
//
// Known bug: atomicity violation (av RWW) on Stack.head: Push's Load
// (stack.go:32) and Store (stack.go:34) are each atomic, but the pair is
// not; another Push's Store between them is overwritten, and its node
// lost (TestPush pops 1 value, wants 2). pecanvet reports it at
// stack.go:32. It is the near miss of restartstackfixed's retry loop:
// the unit acts on the value it loaded, not on a value a CAS validated.
package restartstack
