// Package hardcheckfixed is the fixed twin of package hardcheck
// (concurrent-breakpoints paper, Figure 4).
//
// Fixed: Bar publishes x = 1 through a channel that Foo waits on before its
// check, so the write happens-before the read in every schedule, and Foo can
// never find x == 0. (x itself is now read and written with the mutex held
// as well.) Nothing should be reported.
package hardcheckfixed
