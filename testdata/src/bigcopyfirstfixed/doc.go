// Package bigcopyfirstfixed is the fixed twin of package bigcopyfirst
// (Redraw copied the back frame over the front one while a goroutine
// marked the cursor on it).
//
// Fixed: Redraw waits for the mark before the copy. Nothing should be
// reported.
package bigcopyfirstfixed
