// Package selectsendfixed is the fixed twin of package selectsend (a
// dispatcher that sends through a select, then counts the job).
//
// Fixed: the count is taken under a mutex. Nothing should be reported.
package selectsendfixed
