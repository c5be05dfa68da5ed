// Package latestartfixed is the fixed twin of package latestart.
//
// Fixed: audit appends holding s.mu, as Audited reads. The audit still
// runs after the test may have returned, but every access to s.audited
// holds the lock, so nothing should be reported.
package latestartfixed
