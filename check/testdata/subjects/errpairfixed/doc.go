// Package errpairfixed is errpair with Refresh keeping the entry as it
// is when the fetch fails, as asynccache's refresh does: the error it
// stores is nil on its path. It is silent by design: a Get between the
// two writes returns the new value with the error from before; if that
// was nil, the pair is the one a Get after the refresh returns, and if
// not, the caller takes the error and ignores the value, as before the
// refresh (Go's error convention; static/depend's tornErrorPair and
// tornErrorRead). The asv replays; nothing may be reported.
package errpairfixed
