// Package scoperegfixed is scopereg with the report's range as
// uber-go/tally v4.1.17's Report has it: it reports each scope's counts
// and marks the closed ones, and counts nothing. What is left is silent by
// design: a Report between Get's delete of a closed scope's name
// (registry.go:53) and its insert of a new scope there (registry.go:62)
// ranges (registry.go:70) over a map that neither serial order gives, and
// the replay reproduces that atomicity violation (WRW). But the map
// differs from the one after the insert only by the new scope, made in
// Get and empty, and the range's body does nothing with such a scope: it
// reports no counts and the scope is not closed. Skipping it is what
// coming to it would have done (static/depend's freshEntry; tally's
// scope_registry.go:296 av was this). Nothing should be reported.
package scoperegfixed
