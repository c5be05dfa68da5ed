// Package windowexportfixed is windowexport with Add counting and Rotate
// exporting in one critical section of Windows.mu each, the get-or-create
// run inside it (windows.go:24): an export sees a bucket's counts either
// before an Add's bucket exists or with its count.
//
// Nothing should be reported.
package windowexportfixed
