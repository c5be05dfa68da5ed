// Package wgearly is a Go idiom gone wrong (issue 29: WaitGroup.Add after
// Wait): a Batch whose goroutines call wg.Add themselves (batch.go:21,
// in run, which Run starts with "go b.run(job)"), instead of Run calling
// it before the go statement. Jobs count themselves done with an atomic,
// so no memory access races.
//
// Known bug: sync misuse (an Add from 0 must happen before Wait). Nothing
// orders the Add before Wait's wg.Wait (batch.go:29). In the recorded run
// the test sleeps (50 ms) before waiting, the Add comes first, and the
// Wait blocks until the job (200 ms) is done. The margins are wide
// because under load a new goroutine can wait more than 5 ms before it
// runs: with the 5 ms the test slept before, a loaded recording sometimes
// saw the Wait first, found nothing to predict from, and lost the report. In the bad schedule the Wait runs first:
// it finds the counter at 0 and returns at once, before the job ran
// (TestBatch fails: 0 jobs done, want 1). go test -race sees nothing in
// an ordinary run (the Done→Wait edge orders everything).
//
// pecanvet predicts it from the recorded run (the Wait blocked on the
// counter that the Add raised from 0, and nothing orders the two) and
// proves it by a replay in which the Wait returns before the Add runs.
package wgearly
