// Package afterfuncfixed is the fixed twin of package afterfunc.
//
// Fixed: the expiry callback closes a channel and Expired asks the channel
// (a receive that sees the close is ordered after it); the test waits on
// the channel instead of sleeping. Still no go statement: the only other
// goroutine is time.AfterFunc's. Nothing should be reported.
package afterfuncfixed
