// Package bigcopy is a Go language subject (after Go's
// TestRaceNestedArrayCopy): a Grid of 64×64 cells is updated under its
// lock, and Snapshot copies the whole array without it. TestSnapshot sets
// one cell from a goroutine and takes a snapshot a little later.
//
// Known bug: data race (WR) on the cell between Set's write (grid.go:15)
// and Snapshot's copy of the array (grid.go:21). The copy reads all 4096
// cells; the recorder records the first 256 parts of a copy, and past
// them the parts it already knows as locations other accesses named (the
// cell Set wrote), so that the race on a cell far into the array is not
// missed. If the snapshot comes first, it misses the update (TestSnapshot
// fails).
package bigcopy
