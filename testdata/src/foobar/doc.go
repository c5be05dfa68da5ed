// Package foobar is a Go version of the data race of the
// concurrent-breakpoints paper (Figure 1): foo writes p1.x (line 3) and bar
// reads p2.x (line 9); run concurrently on the same Point they race. Here
// Foo places a point at x = 10 and Bar reports its x coordinate; a tracker
// starts Foo on a new point and a reporter calls Bar on it a little later.
//
// Known bug: data race on Point.X: the write at foobar.go:9 (Figure 1, line
// 3) and the read at foobar.go:14 (line 9) are not ordered by any
// synchronization. The concurrent breakpoint (3, 9, t1.p1 == t2.p2) resolves
// the race write-first, as the ordinary run does; resolved the other way,
// Bar reads 0 (TestReport fails: "x = 0, want 10").
//
// go test -race flags it in a single run.
package foobar
