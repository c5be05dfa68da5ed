// Package iowritefixed is the fixed twin of package iowrite.
//
// Fixed: the Summer acknowledges each chunk after hashing it, and Fill
// waits for the acknowledgement before the buffer is reused. Nothing
// should be reported.
package iowritefixed
