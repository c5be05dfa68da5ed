//go:build (!amd64 && !arm64) || purego

package rt

import "unsafe"

// getg is unavailable on this platform: goroutine ids come from
// runtime.Stack (see goid.go).
func getg() unsafe.Pointer { return nil }

const haveGetg = false
