// Package stringbufferfixed is the fixed twin of package stringbuffer
// (java.lang.StringBuffer; PECAN Table 1 "StringBuf").
//
// Fixed: Append takes one consistent snapshot of the other buffer (o.Bytes,
// a single critical section of o) and appends that, instead of reading o's
// length and its bytes in two separate critical sections. Nothing should be
// reported.
package stringbufferfixed
