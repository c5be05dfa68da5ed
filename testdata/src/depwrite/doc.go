// Package depwrite is an event bus whose handlers log through a helper
// package of the module, after vmware/transport-go v1.3.4's bus and log
// packages (trial 36): each handler runs on a goroutine of its own, and
// the helper (depwrite/lg), which starts no goroutine and takes no lock,
// writes a package variable on every call (transport-go's log.Warn
// writes fatih/color's NoColor). TestPublish subscribes two handlers
// that each log a warning, publishes one event and counts the warnings.
//
// Known bug: data race on lg.warnings between the two handlers'
// increments (lg/lg.go:11, read and write), run by the goroutines
// Publish starts (bus.go:17). The race is in the helper package, which
// has no test of its own that runs it concurrently: go test -race
// reports it under this package's test; pecanvet reports it here, at
// the go statement under drivers that take positions only in the
// package's files, and at lg/lg.go:11 under go vet. In the bad schedule
// one increment is lost (TestPublish fails: warnings = 1, want 2).
//
// go test -race flags it in a single run.
package depwrite
