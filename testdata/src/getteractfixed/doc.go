// Package getteractfixed is the fixed twin of package getteract.
//
// Fixed: Retire holds a mutex across its check and decrement, as pond's
// decrementWorkerCount does. The test still reads the count through
// Running, unlocked, after a sleep that lets the retirers finish: a
// schedule that moves that read between a Retire's check and decrement
// makes the test fail (`running 2, want 1`), but the test's read decides
// no write; only the load's calls from Retire act on it. An acting read
// is one in the calling context where its value decided a write
// (ptg.ActingLoads), so this interleaving is no av/RRW: the failure is
// the test's timing assumption (pond_blackbox_test.go:404's 50 ms sleep).
// Nothing should be reported.
package getteractfixed
