// Package claimdrain is a real-module subject (pecanvet issue 26; the
// try-lock of qmuntal/stateless v1.7.2's queued firing mode, with its
// holder's last look at the queue before its release): Fire queues its
// trigger (machine.go:22), claims the drain by a compare-and-swap of
// firing (machine.go:24), runs every queued trigger until it finds the
// queue empty, and only then releases the claim (machine.go:34). A Fire
// whose claim fails returns and leaves its trigger to the holder.
//
// Known bug: an atomicity violation (WRW) on Machine.firing: a Fire
// that tries the claim between the holder's claim and its release finds
// it held and returns, leaving its trigger queued; the holder looks at
// the queue for the last time before its release, so a trigger queued
// after that look and before the release is never run. TestFire lets
// the holder go only after the second Fire returned, so the holder's
// next take finds the trigger and the test passes: the state between the
// claim and the release, read by the failed try, decides that Fire's
// return, reported by dependence (intermediate state), which
// static/depend's releaseRetaken must not excuse: no take follows the
// release. TestFireFromHandler (the fixed twin's shape of stateless's
// entry action that fires) adds nothing reported here.
//
// go test -race flags nothing: the queue is under the mutex and firing
// is atomic.
package claimdrain
