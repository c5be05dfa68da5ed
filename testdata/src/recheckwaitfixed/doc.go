// Package recheckwaitfixed is recheckwait fixed: Acquire is marusama/
// semaphore v2.5.0's, which, when full, fetches the broadcast channel
// under the read lock and then loads the state again, trying again when
// it changed, before it waits. Nothing should be reported.
//
// A Release between Acquire's load (sem.go:23) and its channel read
// (sem.go:32) is an atomic-set interleaving (asv-11) and, with the
// re-load (sem.go:36), an av RWR on Sem.state; neither changes what
// Acquire does: the changed state sends it back to the load, as it
// would come to the load after that Release. The round from the load to
// the re-load only read and took a read lock it let go, and the loop
// head keeps no value of it (the channel it read dies there): a void
// round, as a failed compare-and-swap's (static/depend's RoundEnd,
// check's casRetried; marusama/semaphore's semaphore.go:93 av, :93 and
// :111 asv, and :176 asv of session 51's trial 33).
//
// TestSetLimit is marusama's TestSemaphore_SetLimit_increase_broadcast:
// SetLimit(2) wakes the waiter and the test checks the count at once,
// which the woken waiter's acquire races (sem_test.go:45). A replay that
// lets the waiter load the state after SetLimit's CAS (sem.go:66) and
// acquire (asv-9), or fetch the old channel and re-load inside SetLimit
// (asv-14), fails there, but its trace is a run in which SetLimit ran
// whole: the waiter's events are a void round or touch only the state,
// which SetLimit does not touch after its CAS (check's serialReplay), so
// the failure is the test's timing; and the waiter's fetch of the old
// channel decides nothing but a retry (static/depend's wokenFetch).
//
// TestReleases is marusama's TestSemaphore_weighted_acquire_gt_release,
// small: three goroutines release at once while the test acquires. A
// Release's CAS (sem.go:49) decides its swap of the channel (sem.go:53);
// another Release's CAS and its load or swap of the channel between
// (asv-9, asv-6) make the CAS's value stale at the swap. The swap stores
// a fresh channel and closes the one it replaces, whatever state decided
// it, and every waiter woken starts its loop over: an extra wake-up is a
// retry (static/depend's wakeRetried, with the swap in the CAS's own
// activation; marusama/semaphore's semaphore.go:176 asv).
//
// TestWeighted (session 55) is that test with marusama's whole Acquire
// (AcquireCtx: n units, a select on the context beside the channel): the
// test, full, loads the state (sem.go:98), a whole Release runs (its CAS
// at sem.go:50 and swap at sem.go:54), and the test fetches the new
// channel (sem.go:107), asv-11. The load decided the fetch, but the
// channel is used only after the re-load (sem.go:109) found the state
// equal to the load's: then the state and channel are those a load and a
// fetch at the re-load would read, or a swap after the fetch closed the
// channel and the waiter starts over (static/depend's fetchRechecked;
// marusama/semaphore's semaphore.go:93 asv-11).
package recheckwaitfixed
