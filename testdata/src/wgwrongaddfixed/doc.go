// Package wgwrongaddfixed is the fixed twin of package wgwrongadd (a
// fetcher whose goroutines called wg.Add themselves).
//
// Fixed: FetchAll calls wg.Add before it starts each goroutine, so every
// Add happens before the Wait. FetchAll also holds f.calls for the whole
// call, so two calls on one Fetcher (a generated driver makes them) do
// not replace f.sizes under each other's goroutines. Nothing should be
// reported.
package wgwrongaddfixed
