// Package subcountfixed is subcount without its audit: a subpool counts
// its workers under its own lock and its parent under the parent's, as
// pond v2's pools do (pond v2's pool.go:417, :430, :467). What is left is silent by
// design: Submit tests the subpool's count against its limit
// (pool.go:32) and then, through takeOrQueue, the parent's (pool.go:42),
// and an Exit that lowers both (pool.go:57, twice) can fall between the
// two tests (an atomic-set-serializability violation on the two counts
// that replay reproduces); but the parent's count it read before the
// Exit's decrement was below the parent's limit and stays below it
// after, so Submit went as it would have after the whole Exit: a serial
// order (static/depend's snapshotKept; pond v2's pool.go:467 asv of
// TestSubpoolStopAndWait was this). Nothing should be reported.
package subcountfixed
