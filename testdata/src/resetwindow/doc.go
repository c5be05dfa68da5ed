// Package resetwindow is the buggy cousin of slok/goresilience v0.2.0's
// circuit breaker window (circuitbreaker/metrics.go): Restart moves the
// breaker to half-open, resetting its window in full (a fresh array of
// buckets, window.go:33, its first bucket current, the next index 1,
// window.go:35), and back to closed with a lighter clear (window.go:48)
// that installs a fresh array and current bucket but keeps the next
// index. The window's slide replaces the oldest bucket (window.go:56)
// and advances and wraps the index (:58, :59).
//
// AV WRW (locked) on Window.buckets: a slide between the reset and the
// clear reads the reset's window (window.go:56, :59) and advances the
// index to 2, which the clear keeps: the fresh window's current bucket is
// its first, the index says the third is next, so the first, holding the
// newest count, is replaced one slide early. The test counts one request
// after the Restart and slides twice in a window of three: no order of a
// whole slide and a whole Restart loses the count, the bad schedule does
// (`total 0 after two slides, want 1`). The slide's index store is read
// by the next slide before anything stores it again, so the rule that
// silences resetwindowfixed (static/depend's `unusedRead`) does not
// apply. Must be reported (test fails).
package resetwindow
