// Package mutexresetfixed is the fixed twin of package mutexreset (a
// counter whose Reset replaced its mutex).
//
// Fixed: Reset clears the count under the mutex it has, without replacing
// it. Nothing should be reported.
package mutexresetfixed
