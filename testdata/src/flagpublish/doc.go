// Package flagpublish publishes a value behind a ready flag guarded by a
// mutex.
//
// Known bug: data race on Box.data: Publish sets the flag under the lock
// but stores the value after releasing it (the write at box.go:17), so a
// Get that sees the flag (box.go:24) can read the value before it is
// stored (the read at box.go:27) and return 0. An ordinary run (Get starts
// 5 ms later) sees the value; the schedule that runs Get between the flag
// and the store returns 0 and the test fails.
//
// go test -race flags it in a single run.
package flagpublish
