// Package ctxdrain is a Go idiom gone wrong (testing.T used after its test
// returned), after open-feature/go-sdk's memprovider test (session 23's
// trial 8): a test drains a Feed's events in a goroutine it does not wait
// for, which stops when the test's context (t.Context()) is canceled at
// the test's end, and logs each event through the test's T.
//
// Known bug: data race on the test's T. The drain goroutine calls t.Logf
// (feed_test.go:17) for an event it received; nothing orders that log
// before the end of the test (feed_test.go:25), which package testing marks
// by writing the T (common.done): the goroutine only learns of the end
// from the context, after the fact. -race reports the race inside package
// testing; a log after the whole run ended panics "Log in goroutine after
// TestFeed has completed".
package ctxdrain
