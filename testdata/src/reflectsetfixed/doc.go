// Package reflectsetfixed is the fixed twin of package reflectset.
//
// Fixed: Timeout reads the field with the lock held. Nothing should be
// reported.
package reflectsetfixed
