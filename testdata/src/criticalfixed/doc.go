// Package criticalfixed is the fixed twin of package critical (ConTest
// "Critical", PECAN Table 1).
//
// Fixed: the section is a sync.Mutex; owner is only read and written while
// the mutex is held, so entering is atomic and the owner check can never
// fail. Nothing should be reported.
package criticalfixed
