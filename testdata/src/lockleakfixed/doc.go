// Package lockleakfixed is lockleak fixed: a source that fails unlocks
// the mutex before it returns, so every source takes it in turn and
// Gather returns the failed source's error. Nothing should be reported.
package lockleakfixed
