// Package resetwindowfixed is resetwindow in slok/goresilience v0.2.0's
// own shape (circuitbreaker/metrics.go): every move of the breaker's
// state resets its window in full, a fresh array of buckets
// (window.go:33), its first bucket current, the next index 1
// (window.go:35), and Restart moves twice, as a Run's two moveState calls
// do; the window's slide, goresilience's windowSlider tick, replaces the
// oldest bucket and wraps the index.
//
// Silent by design: the predicted schedule moves the test's slide between
// Restart's two resets and the replay reproduces those atomicity
// violations (WRW on Window.buckets, the value read at window.go:42 and
// :45; on Window.next, read at :45), but the slide's reads only address
// or decide its own stores (the bucket into the first reset's array, the
// current bucket, the wrapped index), and the replay's trace shows each
// of them dead: the second reset stores the index and the current bucket
// again before anyone reads them, and nothing touches the first reset's
// array again before the run ends (static/depend's `unusedRead`, check's
// `Event.Unused`; goresilience's metrics.go:95 and :99 av were this).
// Main's build before it reported window.go:33 and :35 av (intermediate
// state). Nothing should be reported.
package resetwindowfixed
