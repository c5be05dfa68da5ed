//go:build unix

package pecan

import (
	"runtime"
	"syscall"
)

// peakRSS returns the peak resident set of this process and the largest
// of its children that ended and were waited for (test binaries, the go
// command and its compilers), in bytes (getrusage).
func peakRSS() (self, children int64) {
	return rusageMax(syscall.RUSAGE_SELF), rusageMax(syscall.RUSAGE_CHILDREN)
}

func rusageMax(who int) int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(who, &ru) != nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes there
	}
	return int64(ru.Maxrss) * 1024 // kilobytes on Linux and the BSDs
}
