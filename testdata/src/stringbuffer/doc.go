// Package stringbuffer is a Go version of java.lang.StringBuffer (PECAN
// Table 1 "StringBuf"; the concurrent-breakpoints paper, Figure 3): a
// growable byte string whose every method holds the buffer's mutex.
//
// Known bug: atomicity violation (RWR on the other buffer's contents
// Buffer.b). Append(o) reads o's length (o.Len, the read of o.b at
// stringbuffer.go:21) and later copies that many bytes out of o (o.getChars,
// the read of o.b at stringbuffer.go:38); each call locks o, but the pair is
// not atomic. If another goroutine calls o.SetLength(0) (the write of o.b at
// stringbuffer.go:31) in between, the length is stale and getChars panics
// ("stringbuffer: getChars end 5 > length 0"), like Java's
// StringIndexOutOfBoundsException.
//
// Every access to b is made with the owning buffer's mutex held, so go test
// -race does not flag it.
package stringbuffer
