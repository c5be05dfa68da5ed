// Package wgwrongaddfixed is the fixed twin of package wgwrongadd (a
// fetcher whose goroutines called wg.Add themselves).
//
// Fixed: FetchAll calls wg.Add before it starts each goroutine, so every
// Add happens before the Wait. FetchAll also holds f.calls for the whole
// call: two calls on one Fetcher (a generated driver makes them; Fetcher
// holds a mutex, so it is taken as meant for concurrent use) would each
// replace f.sizes under the other's goroutines, the race that wgwrongadd
// reports at fetch.go:17. Nothing should be reported.
package wgwrongaddfixed
