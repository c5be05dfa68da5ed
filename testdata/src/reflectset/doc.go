// Package reflectset is a Go language subject: a Store's configuration is
// set field by field through package reflect under its lock (as a flag or
// config loader does); Timeout reads the field without the lock.
//
// Known bug: data race on Config.Timeout (named after the reflect access
// that reaches it first: reflect.Value target). reflect.Value.Set writes the
// field (store.go:25) where no instrumented expression shows it, while
// Timeout reads it (store.go:30) without synchronization. If Timeout reads
// after the change is due, it returns the old value (TestTimeout fails).
//
// go test -race flags it in a single run.
package reflectset
