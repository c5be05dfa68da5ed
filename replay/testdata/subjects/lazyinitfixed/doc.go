// Package lazyinitfixed is the fixed twin of package lazyinit.
//
// Fixed: getConn holds the client's mutex while it checks and dials, so the
// connection is dialed exactly once (a failed dial is retried by the next
// request, which sync.Once would not allow). Nothing should be reported.
package lazyinitfixed
