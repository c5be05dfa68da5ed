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
package recheckwaitfixed
