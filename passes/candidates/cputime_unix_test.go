//go:build unix

package candidates_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) this process has used,
// and false if getrusage fails.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
