// Package earlywakefixed is the fixed twin of package earlywake.
//
// Fixed: Retag relabels the head job in one queue operation under the
// queue's mutex (queue.Retag), so the loop never sees the queue without the
// job and always sleeps until its due time. Nothing should be reported.
package earlywakefixed
