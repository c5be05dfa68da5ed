// Package gaugedrainfixed is gaugedrain without the count, tally's shape:
// a gauge's report swaps its updated flag to 0 and reports it only when
// the flag was 1; the report loop's Tick reports the scope, then clears a
// closed scope's gauges; Close marks the scope closed and reports it a
// final time. Close's report between the tick's swap (scope.go:26) and its
// delete (scope.go:85) still comes to the gauge (scope.go:61) and finds it
// drained (scope.go:26), and the replay reproduces that
// atomic-set-serializability violation (asv-10), but the tick's swap left
// 0, Close's swap gets that 0, writes 0 over it and reports nothing, and
// the range's body does nothing else: what the serial order running the
// tick first does, where Close finds no gauge (static/depend's
// drainedEntry; tally's stats.go:129 asv was this). Nothing should be
// reported.
package gaugedrainfixed
