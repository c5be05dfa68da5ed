package rt

import "os"

// extend grows f from size to newSize.
func extend(f *os.File, size, newSize int64) error {
	return f.Truncate(newSize)
}

// adviseRandom: the syscall package has no madvise here; the advice is
// only a saving (mmapOut.remap).
func adviseRandom([]byte) {}
