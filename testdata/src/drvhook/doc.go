// Package drvhook is the rate-limiter shape of session 17's trial
// (httprate's LimitCounter): a Limiter counts requests with a Counter it
// is handed and gives it its window through the Counter interface's
// Config, whose in-memory implementation (local) writes the window
// without the mutex that Inc reads it under. NewLimiter calls Config
// before the limiter is shared, and so does SetWindow (limiter.go:33),
// at run time, while other goroutines call Allow. The only test is one
// goroutine (limiter_test.go:5-17), so pecanvet finds the bug through a
// generated driver (static/driver) calling Config and Inc on one local
// from two goroutines.
//
// Known bug: data race on local.window between Config's unlocked write
// (limiter.go:49) and Inc's locked read (limiter.go:55): a SetWindow
// during traffic races with every Allow; the counts it adds are the old
// window or the new one at random, and the race detector's word is that
// anything may happen. local holds a sync.Mutex, so it is meant for
// concurrent use and the race is reported as any race is.
//
// -race, 1 run: the test has one goroutine; no race.
package drvhook
