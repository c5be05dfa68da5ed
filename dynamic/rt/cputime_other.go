//go:build !unix

package rt

// cpuTime is 0 where getrusage is missing (see cputime_unix.go): the
// stall verdicts then wait for a goroutine that may run up to stallMax
// bounds (replayer.stallWait).
func cpuTime() int64 { return 0 }
