//go:build !go1.24

package rt

import "unsafe"

// objRef: without package weak (Go 1.24), a synchronization object
// allocated at the address of a collected one is taken for it.
type objRef struct{}

func makeObjRef(p unsafe.Pointer) objRef { return objRef{} }

func sameObj(r objRef, p unsafe.Pointer) bool { return true }
