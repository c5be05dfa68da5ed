package cg

// #include <stdlib.h>
// #include <string.h>
// static int twice(int x) { return 2 * x; }
import "C"

import "unsafe"

// Twice doubles through C.
func Twice(x int) int {
	n := int(C.twice(C.int(x)))
	Total += n
	return n
}

// Len measures a string in C, in a goroutine.
func Len(s string) int {
	done := make(chan int)
	go func() {
		cs := C.CString(s)
		defer C.free(unsafe.Pointer(cs))
		done <- int(C.strlen(cs))
	}()
	return <-done
}
