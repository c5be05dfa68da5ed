// Package ioreadfixed is the fixed twin of package ioread.
//
// Fixed: Peek reads the buffer with the lock held. Nothing should be
// reported.
package ioreadfixed
