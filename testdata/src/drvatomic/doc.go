// Package drvatomic is a connection whose Close stores its flag with
// atomic.StoreUint32 (conn.go:35) while Write reads it plainly
// (conn.go:24): a data race by Go's memory model, which go test -race
// reports when a test runs Write and Close together. The only test is
// sequential, so only a generated driver calling Close and Write
// concurrently runs the pair. Its replay shows no outcome that no serial
// order gives (a Write before the Close succeeds, one after it fails), and
// neither access holds a lock: before session 50 the driver's race was
// dropped as one of calls "meant for one caller at a time". An atomic
// access says the word is shared as a lock does, so the race now counts.
//
// Known bug: data race on Conn.closed between conn.go:24 (plain read) and
// conn.go:35 (atomic store).
package drvatomic
