// Package windowsnap is a real-module subject (pecanvet issue 26; the
// buggy cousin of github.com/armon/go-metrics v0.7.0's InmemSink, whose
// Data forces the current interval's creation before it copies it):
// Windows keeps one bucket of counts per epoch, and current gets or
// creates epoch's bucket (windows.go:24): it returns the newest when its
// epoch is the one asked for, and appends a fresh one for it otherwise
// (windows.go:32). Add counts into the bucket current returns
// (windows.go:41). Newest copies the newest bucket without making any
// epoch current first (windows.go:48, :51).
//
// Known bug: an atomic-set-serializability violation (asv-9) on
// Windows.buckets and the bucket's counts: Newest between Add's append
// of epoch 1's bucket and its count sees epoch 1's bucket without the
// count, a state neither order gives (Newest first sees epoch 0's
// bucket; Add first, epoch 1's with x counted). TestNewest fails:
// "epoch 1's bucket without its add". static/depend's createdSeen must
// not excuse it: the reader ran no get-or-create that found the new
// bucket.
//
// go test -race flags nothing: every access holds a lock.
package windowsnap
