// Package appendalias is a Go idiom subject: Paths builds one path per
// name concurrently by appending the name to a shared prefix slice.
//
// Known bug: data race on the prefix's backing array. When the prefix has
// spare capacity, every append (paths.go:18) writes the same element past
// its length, without synchronization; no expression but the append shows
// the write. If one goroutine's append lands between another's append and
// its Join (paths.go:19), that path ends with the wrong name (TestPaths
// fails).
//
// go test -race flags it in a single run.
package appendalias
