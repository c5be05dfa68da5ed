// Package tunewake is a lost Cond broadcast whose waiters the natural
// recording does not show (ants v2.12.1's Tune and retrieveWorker,
// ants.go:374 and :539; pecanvet issue 26, session 40): Pool.Acquire
// holds the pool's mutex, finds the pool full and waits on room
// (pool.go:37); Tune stores the new capacity and broadcasts (pool.go:47)
// without the mutex, so its broadcast can fall between an Acquire's check
// and its Wait. The test fills the pool, forks three goroutines that
// Acquire and goes on at once to Tune, then waits for them.
//
// Known bug: deadlock. If Tune's broadcast comes after an Acquire's check
// of the old capacity and before its Wait, that Acquire sleeps with room
// in the pool, and the test hangs in wg.Wait. go test -race sees nothing.
//
// What it tests: a recording where the parent goes on from its go
// statements to the broadcast before any child began has the children
// read the new capacity and never wait, so there is no Wait to move the
// broadcast before, and the test's first run reproduces only its
// ResetUses atomicity violation, without effect (pool.go:54, :62), so
// check's rule for thin runs (nothing proved) does not record it again.
// The broadcast before children that had not begun, on a Cond no Wait in
// the trace returned from (record.Test.EarlyNotify), has it recorded
// again children first, where each child waits and the lost signal is
// predicted and proved.
package tunewake
