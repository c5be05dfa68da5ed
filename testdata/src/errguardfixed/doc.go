// Package errguardfixed is errguard with Refresh keeping the entry as it
// is when the fetch fails, as asynccache's refresh does: the error it
// stores is nil on its path. It is silent by design: a GetOr between the
// two writes sees the error from before; if that was nil, it returns the
// new value, which the refresh stores with a nil error, as a GetOr after
// the refresh does, and if not, it returns the default without reading
// the value, as before the refresh (static/depend's tornErrorGuard, from
// the writer's unit as well as the reader's; asynccache.go:107 asv was
// this). The asv replays; nothing may be reported.
package errguardfixed
