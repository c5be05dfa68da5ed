// Package stolenrecvfixed is stolenrecv with the fix: the worker answers
// on a channel of its own (relay.go:15), so the collector (relay.go:19)
// can only take the answer, never the job; UpperLoop (loop.go) likewise
// (loop.go:16, loop.go:21), and it closes the job channel when it
// returns (loop.go:12), which ends the worker's range loop. Nothing
// should be reported.
package stolenrecvfixed
