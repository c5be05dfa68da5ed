// Package wgwrongaddfixed is the fixed twin of package wgwrongadd (a
// fetcher whose goroutines called wg.Add themselves).
//
// Fixed: FetchAll calls wg.Add before it starts each goroutine, so every
// Add happens before the Wait. Nothing should be reported.
package wgwrongaddfixed
