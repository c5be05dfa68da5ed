// Package mapwritesfixed is the fixed twin of package mapwrites.
//
// Fixed: the counter has a mutex that Add holds while it updates the map and
// Count holds while it reads it. Nothing should be reported.
package mapwritesfixed
