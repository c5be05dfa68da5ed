//go:build (amd64 || arm64) && !purego

package rt

import "unsafe"

// getg returns the runtime's g of the calling goroutine (assembly).
func getg() unsafe.Pointer

const haveGetg = true
