//go:build go1.24

package rt

import (
	"unsafe"
	"weak"
)

// objRef remembers a synchronization object (channel, WaitGroup, Once,
// Cond) without keeping it alive, so that a new one allocated at the
// address of a collected one is told apart from it: it gets a new object
// name (and, for a channel, fresh counts). See recorder.syncObject.
type objRef = weak.Pointer[byte]

func makeObjRef(p unsafe.Pointer) objRef { return weak.Make((*byte)(p)) }

// sameObj reports whether r still refers to the live object at p.
func sameObj(r objRef, p unsafe.Pointer) bool { return unsafe.Pointer(r.Value()) == p }
