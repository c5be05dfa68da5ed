// Package tickreadfixed is tickread with the value and its error stored
// as one entry behind one atomic pointer: a Get sees a pair some fetch
// gave.
//
// Silent by design: the refresh's entry store and its reset of the Get
// count around a Get's load and count (asv on Cache.cur, Cache.gets) is
// reproduced, and its replay fails the test ("Get = "new" before the
// refresh is due"), but only because the schedule runs the 100 ms tick
// ahead of a Get the test makes after a 50 ms sleep, holding the test at
// its gate while the virtual clock passes the tick; the serial order
// with the whole refresh first fails the same way, held over the same
// tick (check's timerPastSleep), and no value the Get goes on to use
// depends on the count. Reported before session effect26's controls,
// and again under load (session 46, TestFixedTwins at load ~30) when
// the ticker came due during the test's 50 ms sleep rather than at the
// tick's receive, in the replay or in the serial order: a fire in the
// sleep counts as the fire ahead of the Get since session 47.
package tickreadfixed
