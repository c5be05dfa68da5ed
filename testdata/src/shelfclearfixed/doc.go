// Package shelfclearfixed is shelfclear without the count, tally's shape
// (a report's clearMetrics of a closed scope that the other report
// unlisted and cleared first, scope_registry.go:120 asv, pecanvet issue
// 26): a Drop between Purge's lookup (shelf.go:32) and its clear's range
// (shelf.go:15) unlists the shelf (shelf.go:47) and clears it
// (shelf.go:16), and the replay reproduces that asv-11, but the Drop only
// deleted (every write of the items the schedule shows up to the range is
// a clear loop's delete), so Purge's clear deletes nothing and the shelf
// ends empty, as in either serial order (static/depend's clearedAgain,
// from check's Event.Prior). Nothing should be reported.
package shelfclearfixed
