//go:build unix

package tmpdir

import (
	"os"
	"syscall"
)

// tryLock takes f's exclusive flock without waiting. flock locks belong
// to the open file, so a second open of the same file, even in this
// process, cannot take it while the first holds it.
func tryLock(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
