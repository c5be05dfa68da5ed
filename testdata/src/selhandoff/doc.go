// Package selhandoff is a lost Cond broadcast (issue 29) behind a
// non-blocking hand-off, the shape of viney-shih/goroutines v1.1.3's
// Pool: the miner waits on p.room for room (pool.go:40) after checking
// p.stop under p.mu, and Release closes p.stop and broadcasts (pool.go:67)
// without the lock. Schedule hands its task to the idle worker with a
// select whose default runs it in place (pool.go:58); the test sleeps so
// that the worker waits in its receive and takes it, and an ordinary run
// passes.
//
// Known bug: deadlock. If Release's close and Broadcast fall between the
// miner's check of p.stop and its Wait, the broadcast is lost, the miner
// waits for ever and Release hangs in p.wg.Wait (goroutines' Release did,
// 1 in about 10^5 runs of a loop of NewPool, Schedule, Release). go test
// -race sees nothing: there is no data race.
//
// pecanvet predicts it from the recorded run. The replay must first
// repeat the hand-off: the recording wrote the send before the worker's
// receive (the worker was blocked already), and a replay that held the
// worker at its gate until the receive's turn let the select take its
// default and diverge (rt's parkPartner waits for the worker to park).
package selhandoff
