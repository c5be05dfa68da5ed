package rt

import (
	"os"
	"syscall"
)

// extend grows f from size to newSize, allocating the blocks when the file
// system supports it.
func extend(f *os.File, size, newSize int64) error {
	for {
		err := syscall.Fallocate(int(f.Fd()), 0, size, newSize-size)
		if err == syscall.EINTR {
			continue
		}
		if err == nil {
			return nil
		}
		break
	}
	return f.Truncate(newSize)
}

// adviseRandom tells the kernel not to read around faults in mem
// (mmapOut.remap).
func adviseRandom(mem []byte) { syscall.Madvise(mem, syscall.MADV_RANDOM) }
