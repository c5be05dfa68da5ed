// Package timedtestfixed is timedtest fixed: Inc is a CAS loop
// (timedtest.go:14 load, timedtest.go:15 CompareAndSwap against the value
// loaded, retried on failure), serializable by construction; the test,
// with its timing assumption, is the same. Silent by design: a CAS
// against the value read is no dependence (static/depend's casAgainst),
// and a replay whose CAS fails where the recorded one succeeded
// diverges. A failure of the early check alone (timedtest_test.go:26,
// the schedule holding a goroutine past the sleep) is one that both
// serial controls show too (check's control replays), so no effect.
// Nothing should be reported.
package timedtestfixed
