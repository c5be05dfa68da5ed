// Package relockstalefixed is relockstale with Has loading the registry
// through loadLocked, which expects r.mu held: no path locks a mutex it
// holds. Nothing should be reported.
package relockstalefixed
