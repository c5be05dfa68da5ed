// Package tickwait is tickread with the test waiting on `<-time.After`
// instead of time.Sleep, as ttlcache's TestCache_TestTouch does (issue
// 26; a receive from a timer's channel is a test sleep whose wake is the
// receive itself: check's timerWaits). As tickread: a cache whose
// background refresh, driven by a ticker, replaces a value and the
// error of the fetch that gave it, as two atomics, and counts the Gets
// since the refresh in a third.
//
// Known bug: atomic-set-serializability violation on Cache.val and
// Cache.err: the refresh stores the value (tick.go:41) and then the error
// (tick.go:42); a Get that loads both between (tick.go:48, tick.go:50)
// returns the fresh value with the stale error ("source degraded" from
// the first fetch beside the good value of the second), a pair no
// fetch gave. Reported through dependence (inconsistent snapshot: Get
// returns both), with no test assertion about the error.
//
// Not reported: the same refresh's value store and its reset of the Get
// count (tick.go:43) around a Get's load and count (asv on Cache.val,
// Cache.gets). Its replay fails the test ("Get = "new" before the
// refresh is due", tick_test.go:24) only because the schedule runs the
// 100 ms tick ahead of a Get the test makes after a 50 ms wait, which it
// does by holding the test at its gate while the virtual clock passes
// the tick; the serial order with the whole refresh first fails the same
// way, held over the same tick (check's timerPastSleep). The test's
// timing, not the interleaving: an interleaving without effect. Before
// session 22 the wait was no sleep to check and this one was reported,
// by its effect.
// go test -race reports nothing (every access is atomic).
package tickwait
