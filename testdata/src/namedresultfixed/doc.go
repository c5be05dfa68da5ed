// Package namedresultfixed is the fixed twin of package namedresult.
//
// Fixed: the refresh sends the fresh price on a channel instead of writing
// the named result, and Latest takes it with a select bounded by the wait;
// only Latest's goroutine touches price. Nothing should be reported.
package namedresultfixed
