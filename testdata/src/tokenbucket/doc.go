// Package tokenbucket is a Go idiom subject (pecanvet issue 26: xtaci/smux
// v1.5.58's Session.recvLoop and returnTokens): a receiver takes each
// frame's length from an atomic token bucket, waiting at the top of each
// round of a for {} while the bucket is empty; readers give the tokens
// back.
//
// Known bug: atomicity violation (stale read-back, RWR) on
// Session.bucket: Recv takes a frame's length (bucket.go:31) and reads
// the bucket back (bucket.go:32) to tell whether its own take emptied
// it; reported at bucket.go:31. A reader's Return between is read as if
// the take had left that much, and the stall is not counted: `stalls =
// 0, want 1: the frame's take emptied the bucket` (bucket_test.go:26).
// The reader returns 5 ms later, so an ordinary run passes, and every
// access is atomic, so go test -race reports nothing.
package tokenbucket
