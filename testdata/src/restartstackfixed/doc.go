// Package restartstackfixed is restartstack fixed: Push is amirylm/lockfree
// v0.0.4's LLStack.Push, a CAS retry loop whose failure edge goes back
// through the loop's condition (`for !s.Closed() { h := s.head.Load();
// e.next.Store(h); if s.head.CompareAndSwap(h, e) { return true } };
// return false`; lockfree's condition is `!s.Full()`). Nothing should be
// reported.
//
// A CAS that fails is recorded as a load (stack.go:32); another Push's
// CAS, then this Push's next round's CAS, is a check-then-act on it
// unless its failure only starts the loop over: the failed round left
// the loop head's locals as they were and wrote only the new node's
// link, which nothing reads before a CAS publishes the node and which
// every round stores again before its CAS, so the round was a no-op and
// the condition and the load read afresh, as a serial order with the
// other Push first would (static/depend's `restarted`). TestPushPop's
// 1000 pushes in each of two goroutines, against two popping goroutines,
// make failed CASes in the recording (not in every run); TestPush is
// restartstack's test.
package restartstackfixed
