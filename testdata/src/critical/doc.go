// Package critical is a Go version of the ConTest "Critical" program (PECAN
// Table 1): a hand-made critical section. A goroutine waits until the
// section's owner field is 0, writes its own id into it, runs its body,
// checks that it still owns the section, and writes 0 back.
//
// Known bug: atomicity violation (WWR) and data races on Section.owner. The
// test of the owner at critical.go:15 and the write at critical.go:18 are
// not one atomic step, so two goroutines can both find the section free and
// both enter. Then the second one's write at critical.go:18 lands between
// the first one's write at critical.go:18 and its check at critical.go:20:
// the first goroutine finds a foreign owner inside its own critical section
// and panics ("critical: goroutine 1 found owner 2"). Every access to owner
// is also a data race (reads at critical.go:15 and critical.go:20, writes at
// critical.go:18 and critical.go:23).
//
// go test -race flags it in a single run.
//
// Expected: the data races above are reported, and the atomicity violation
// once, at critical.go:18 (av/WWR: the owner read back at critical.go:20 is
// the other goroutine's, which is the panic; its dependence holds whether or
// not a run's controls leave its panic an effect, so it leads: check's
// dependsAlways, since session 39), the RWR at critical.go:15 and the others
// with the same panic among its interleavings, shown with -v. The
// av/WRW at critical.go:18 (the other goroutine's read of the owner at
// critical.go:15 between the write at :18 and the reset at :23) is that
// goroutine waiting for the section: the replay's trace shows it reading
// the owner again, its value used by nothing but the loop's test
// (static/depend's retried); it was reported for that dependence before.
// The atomic-set-serializability violation at critical.go:18 that replay
// reproduces has neither an effect nor a dependence. Both are interleavings
// without effect, shown with -v.
package critical
