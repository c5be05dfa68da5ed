// Package latelogfixed is the fixed twin of package latelog.
//
// Fixed: each subtest waits for its background work (a WaitGroup of its
// own, waited for before the subtest's function returns), so the log
// through the subtest's T happens before the subtest ends. Nothing should
// be reported.
package latelogfixed
