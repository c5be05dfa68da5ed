// Package tickread is a subject for the effect controls (issue 26; the
// shape of bytedance/gopkg's asynccache TestGetOK): a cache whose
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
// 100 ms tick ahead of a Get the test makes after a 50 ms sleep, which it
// does by holding the test at its gate while the virtual clock passes
// the tick; the serial order with the whole refresh first fails the same
// way, held over the same tick (check's timerPastSleep). On a loaded
// machine the tick may come due while the test still sleeps (the
// virtual clock runs with the real one); the schedule still runs the
// tick's receive after the test's wake and ahead of its Get, and that
// counts the same (session 47). The test's timing, not the
// interleaving: an interleaving without effect.
// go test -race reports nothing (every access is atomic).
package tickread
