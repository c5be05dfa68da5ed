// Package windowexport is a real-module subject (pecanvet issue 26; the
// true cousin of github.com/armon/go-metrics v0.7.0's DisplayMetrics,
// which calls Data, whose getInterval may open a new interval, and then
// shows data[n-2], "the most recent finished interval"): Windows keeps
// one bucket of counts per epoch, and current gets or creates epoch's
// bucket (windows.go:24), as windowsnap's. Add counts into the bucket
// current returns (windows.go:41). Rotate makes its epoch current and
// exports the bucket before the newest, the one its epoch finished
// (windows.go:51, :58), once: an exported bucket is final.
//
// Known bug: an atomic-set-serializability violation (asv-9) on
// Windows.buckets and the bucket's counts: Rotate(2) between Add(1)'s
// append of epoch 1's bucket (windows.go:32) and its count appends epoch
// 2's bucket itself and exports epoch 1's without the count, which
// lands after the export and is lost to it; neither order gives that
// (Rotate first exports epoch 0's bucket, Add first epoch 1's with x
// counted). TestRotate fails: "epoch 1 exported without its add". This
// is go-metrics' inmem.go:304 asv instance (:264, inmem_endpoint.go:94)
// with an exporter for a display: the code the judge sees is the same,
// so static/depend's createdSeen must not excuse it, and does not: the
// reader's get-or-create appended a bucket of its own (Event.Prior holds
// its write), so run first it would not have made the bucket it read.
//
// Known bug: an atomicity violation (av RWR, windows.go:27) on
// Windows.buckets: Add(1)'s append of epoch 1's bucket between
// Rotate(2)'s get-or-create, which appended epoch 2's, and its read of
// the buckets makes Rotate export the bucket it opened, and epoch 0's is
// never exported. TestRotate fails: "Rotate(2) exported the bucket it
// opened". This is go-metrics' inmem.go:304 av (Data's getInterval
// appends, another getInterval appends, Data reads the intervals by
// position): the same code, harmless there only because DisplayMetrics
// shows what it reads and exports nothing, so no rule on the code may
// excuse it.
//
// go test -race flags nothing: every access holds a lock.
package windowexport
