//go:build !unix

package tmpdir

import "os"

// tryLock reports false: without flock, no directory is ever swept.
func tryLock(f *os.File) bool { return false }
