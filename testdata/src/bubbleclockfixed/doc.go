// Package bubbleclockfixed is the fixed twin of package bubbleclock: a
// meter whose every increment holds its lock, tested inside a
// testing/synctest bubble (pion/transport's vnet tests, trial 16).
//
// Fixed: Twice makes two increments, each a whole critical section, so a
// worker's increment between them loses nothing and the count is always
// 3. The test's worker sleeps 1 ms of the bubble's fake time first, and
// the test checks that Twice took no fake time: in every real run the
// bubble's clock moves only once every goroutine of it is durably
// blocked, after Twice returned. A replay that holds the test's
// goroutine between the two increments (at its gate, a sync.Cond.Wait
// that synctest counts as durably blocked) lets the bubble move its
// clock, or declare a deadlock, where no real run would: no effect.
// Nothing should be reported.
package bubbleclockfixed
