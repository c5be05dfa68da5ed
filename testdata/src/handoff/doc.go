// Package handoff is a Go idiom after golang.org/x/sync/singleflight: Do
// publishes the key's pending call in the map and unlocks while fn runs,
// so that a duplicate caller finds it and shares its result. TestDo runs
// two calls on the same key, the second 20ms after the first.
//
// Known bug: atomicity violation (WRW, an intermediate state observed) on
// Group.m. The first call inserts the pending call (handoff.go:30) and
// deletes it (handoff.go:37) in two critical sections; a duplicate that
// looks the key up in between (handoff.go:24) takes the pending call's
// value (handoff.go:25) before the first call sets it (handoff.go:36)
// and returns 0 (TestDo fails: Do = [42 0]). It does not wait for the
// call it found.
//
// handofffixed waits on the call's WaitGroup, which the first call marks
// done once it set the value: the same intermediate state is then a
// hand-off and must not be reported.
package handoff
