// Package timerrelayfixed is timerrelay fixed: the relay's channel has a
// buffer of one, so its send completes even after Read has returned
// through its timeout and the relay goes on to the next value (this
// test's source sends one). Nothing should be reported.
package timerrelayfixed
