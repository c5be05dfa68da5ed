// Package sliceclear is a real-module cousin (pecanvet issue 26; the shape
// of uber-go/tally v4.1.17's clearMetrics, scope.go:553/:558/:567): Drop
// sets the buffer's slice to nil (buffer.go:24) and then sums what is
// left (buffer.go:37).
//
// Known bug: an atomicity violation (av/WWR) on Buffer.vals: an Add
// between the clear and the sum (buffer.go:17) makes Drop sum a value
// added after its clear, which the serial orders do not give (Drop first:
// 0, the value left; Add first: 0, the value cleared). TestDropThenAdd's
// gate holds the Drop after its clear, so the recorded run is that
// interleaving; it logs `Drop summed 2 after its clear` and does not
// fail (no value is lost): the bug is reported by dependence ("stale
// read-back: the value read back at buffer.go:37 is another goroutine's,
// not the unit's own write at buffer.go:24"). With a clear between
// instead (sliceclearfixed) the read reads the nil its own write stored;
// an append's value is no constant (static/depend's constBack does not
// excuse it).
//
// go test -race flags nothing: every access holds the mutex.
package sliceclear
