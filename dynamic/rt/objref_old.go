//go:build !go1.24 || !(amd64 || arm64) || purego

package rt

// objRef: without package weak (Go 1.24) or runtime.findObject (declared
// without a body, which needs the package's assembly: see getg_asm.go), an
// object is its address: a variable allocated at the address of a collected
// one is taken for it, in the recording and in replay alike.
type objRef struct{}

func heapRef(addr uintptr) objRef { return objRef{} }

func heapBase(addr uintptr) uintptr { return 0 }

func makeRef(base uintptr) objRef { return objRef{} }

func live(r objRef) bool { return true }
