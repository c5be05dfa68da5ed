package rt

import "os"

// extend grows f from size to newSize.
func extend(f *os.File, size, newSize int64) error {
	return f.Truncate(newSize)
}
