// Package divergectafixed is the fixed twin of package divergecta.
//
// Fixed: Use looks the entry up, creates it if absent and counts the use
// in one critical section, so the second caller always finds the first
// caller's entry and the creation is counted once whatever the order of
// the calls. Nothing should be reported.
package divergectafixed
