// Package registry is a Go idiom subject: a Registry keeps one service per
// name in a sync.Map and counts the registrations; Register stores the
// service unless the name is taken.
//
// Known bug: atomicity violation (check-then-act) on the sync.Map entry of
// the name: Load (registry.go:17) and Store (registry.go:18) are each
// atomic, but the pair is not. In the recorded run the second Register
// finds the name and returns; if its Load falls between the first
// Register's Load and Store, it finds the name absent too, and both store
// and count: `registered 2 times, want 1` (TestRegister fails). No other
// goroutine's write falls inside the first check-then-act, so this is the
// av/RRW pattern (another goroutine's check inside it), not av/RWW. Every
// access is a sync.Map or sync/atomic operation: there is no data race, and
// go test -race reports nothing.
package registry
