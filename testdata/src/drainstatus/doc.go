// Package drainstatus is Caffeine's drain-status state machine (otter's
// cache): writes ask for a maintenance pass; a pass publishes processing
// while it applies the writes, so that a write landing meanwhile turns
// it into processingRequired and the pass is asked for again.
//
// Known bug: atomicity violation on Cache.status. Maintain stores
// processing (drain.go:50) and closes the pass with a plain
// Store(idle) (drain.go:52): a Write between them (its CAS from
// processing to processingRequired, drain.go:32) is overwritten, and
// its pending write waits with no pass required (TestWrite: "a write is
// pending and no pass is required"). Busy's read between the two stores
// (drain.go:57) sees processing, a state the pass does not validate
// before it leaves it: pecanvet reports it by dependence (intermediate
// state) or by the replay's effect, at drain.go:50.
//
// Write's read (drain.go:29) is not reported on its own. Its av/RWR and
// av/RWW schedules run Maintain's Store(idle) between that read and
// Write's CAS: the read saw processing, the CAS from processing fails,
// and Write reads idle again and asks for a pass. Their replays once
// failed the test only because Write, set free at its divergence, ran its
// CAS before the Store(idle) the schedule had put first: that run was
// the WRW above, and which of the two went first was the machine's load.
//
// The fixed twin closes with CompareAndSwap(processing, idle), storing
// required when it fails: the state between is published, and what other
// goroutines read of it is the protocol.
//
// go test -race flags nothing: every access is atomic.
package drainstatus
