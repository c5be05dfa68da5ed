// Package stolenrecv is a goroutine leak by a stolen partner (issue 29;
// Tu et al., ASPLOS 2019: competing receivers that leave one side
// blocked forever): Upper sends a job on an unbuffered channel
// (relay.go:22) to a worker (relay.go:14), which answers on the same
// channel (relay.go:15); a collector goroutine receives the answer
// (relay.go:19) and passes it on. The collector starts a millisecond
// late, so an ordinary run hands the job to the worker and passes.
//
// Known bug: goroutine leak, and a wrong result. Both receivers compete
// for every value on the channel: if the collector's receive comes
// first it takes the job itself, Upper returns its input unchanged, and
// the worker waits forever for a job in relay.go:14 (its own answer was
// the only other send). go test -race sees nothing: there is no data
// race.
//
// pecanvet predicts the stolen partner from the recorded run (the job's
// send and the worker's receive matched; the collector's receive on the
// same channel, whose own match is the worker's later send) and proves
// it by a replay that hands the job to the collector (which receiver
// gets a send is the schedule's: each waits at its gate for its turn):
// the test returns with the worker blocked in relay.go:14. A recorded
// run in which the collector, late by a millisecond only, took the job
// shows the same leak itself (the worker blocked in its plain receive at
// the test's end, check/observedsync.go): the want accepts either.
//
// UpperLoop (loop.go) is the same with a worker that serves jobs in a
// range loop (loop.go:14), answering each on the same channel
// (loop.go:15), and a collector receiving at loop.go:20: the worker's
// loop is left blocked in its receive at loop.go:14. Its replay needs
// the range loop's receives gated (which receiver gets the job is the
// schedule's choice) and its proof a goroutine blocked in a receive the
// loop itself performs. Nothing ever closes the job channel, so every
// run also ends with the worker blocked in that receive, which nothing
// live can complete: that observed leak (check/observedsync.go) is the
// same operation's, and leads (one bug, one report).
package stolenrecv
