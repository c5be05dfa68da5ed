// Package stolenrecvfixed is stolenrecv with the fix: the worker answers
// on a channel of its own (relay.go:15), so the collector (relay.go:19)
// can only take the answer, never the job; UpperLoop (loop.go) likewise
// (loop.go:15, loop.go:20). Nothing should be reported.
package stolenrecvfixed
