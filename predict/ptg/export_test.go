package ptg

// SetMaxChunkShift sets the chunk size bound of clock snapshots for a
// test and returns the function that restores it.
func SetMaxChunkShift(s uint) (restore func()) {
	old := maxChunkShift
	maxChunkShift = s
	return func() { maxChunkShift = old }
}

// ClockBytes is the memory the clock snapshots of gr hold: rows and
// chunks (the chunk pages counted by length, not capacity).
func ClockBytes(gr *Graph) int {
	n := 0
	for _, r := range gr.snapRows {
		n += 4 * len(r)
	}
	for _, p := range gr.clk.pages {
		n += 4 * len(p)
	}
	return n
}

// Snapshots is the number of clock snapshots of gr.
func Snapshots(gr *Graph) int {
	n := 0
	for _, l := range gr.snapLoc {
		n += len(l)
	}
	return n
}
