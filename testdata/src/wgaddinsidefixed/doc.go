// Package wgaddinsidefixed is the fixed twin of package wgaddinside.
//
// Fixed: Go calls WaitGroup.Add before it starts the goroutine, so every Add
// happens-before the Wait and Wait cannot return before the tasks are done.
// Nothing should be reported.
package wgaddinsidefixed
