// Package publishtakefixed is publishtake with the bucket made full
// before it is inserted, as go-limiter's memorystore does: a second Take
// that finds it between the insert and the first Take's own take takes
// first, under the bucket's lock, which is what any caller may do. It is
// silent by design: the asv (the insert, the other Take's lookup and
// take, then the first Take's decrement) replays, but the publisher then
// uses the new bucket through the method the reader ran, which re-reads
// the count under the bucket's lock (static/depend's publishedThenUsed);
// nothing may be reported.
package publishtakefixed
