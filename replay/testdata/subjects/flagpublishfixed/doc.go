// Package flagpublishfixed stores the value before setting the flag under
// the mutex: correct message passing. Nothing should be reported.
//
// It shows pruning: the hybrid model (locks are not happens-before) still
// predicts a race between the store of Box.data (box.go:15) and the read in
// Get (box.go:28), but every schedule that puts the read before the store
// makes Get see ready == false and return early — the goroutine takes
// another branch, so replay prunes the prediction as "diverged".
package flagpublishfixed
