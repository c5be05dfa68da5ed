// Package windowsnapfixed is windowsnap with Newest making the epoch it
// is asked for current first, as go-metrics' Data calls getInterval
// before it copies the current interval (windows.go:47).
//
// Nothing should be reported. It is silent by design: Newest between
// Add's append of epoch 1's bucket (windows.go:32) and its count
// (windows.go:41) copies the bucket empty (the asv-9 replays), but its
// own current(1) ran after the append, wrote nothing and found that
// bucket (the replay's reads of its length, test and element, no write
// between): run first, Newest would have appended the same fresh bucket
// for the same epoch and copied it empty, and Add would have found it
// and counted into it. A serial order's state (static/depend's
// createdSeen; go-metrics' inmem.go:304 asv, Data between AddSample's
// getInterval and its add, was this when Data's getInterval found the
// new interval).
package windowsnapfixed
