// Package fireforgetfixed is the fixed twin of package fireforget.
//
// Fixed: the hit count is an atomic.Int64, so the goroutine that HitAsync
// starts (still not waited for) and Hits no longer race. The test checks
// only what holds in every schedule. Nothing should be reported.
package fireforgetfixed
