// Package revalidatefixed is revalidate with take fixed the way xsync's
// Map.doCompute is written: the lock-free load only chooses the slow
// path, where the count is read again under the lock and that re-read
// decides the bump (double-checked re-validation). Another take between
// the load and the lock is seen by the re-read; nothing may be reported.
package revalidatefixed
