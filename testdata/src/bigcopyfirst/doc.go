// Package bigcopyfirst is a Go language subject (after Go's
// TestRaceNestedArrayCopy): Redraw marks the cursor on the front frame
// from a goroutine and, meanwhile, shows the back frame by copying it,
// 8 MB, over the front one. Nothing orders the mark and the copy.
// TestRedraw runs on one P, so the goroutine usually begins only once
// Redraw waits, after the copy.
//
// Known bug: data race (WW) on the cursor's pixel between the mark
// (screen.go:19) and the copy (screen.go:22). When the copy runs first,
// it records only its first 256 parts (and the parts other accesses made
// known, none yet), so the trace shares nothing. The run is slow (16 MB
// of frames), too slow for an ordinary perturbed re-recording; a copy
// made before the child began asks for one children first, which shows
// the mark before the copy.
package bigcopyfirst
