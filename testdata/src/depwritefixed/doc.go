// Package depwritefixed is the fixed twin of package depwrite (an event
// bus whose handlers, each on a goroutine of its own, log through a
// helper package of the module that counts the warnings).
//
// Fixed: the helper counts under a sync.Mutex, so the handlers'
// increments never overlap. Nothing should be reported.
package depwritefixed
