//go:build !unix

package rt

// cpuTime is 0 where getrusage is missing (see cputime_unix_test.go).
func cpuTime() int64 { return 0 }
