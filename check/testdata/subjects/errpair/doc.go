// Package errpair is testdata/src's errpair with a test that checks
// nothing: a Get between the refresh's two writes returns the failed
// fetch's value with the error from before, and only the dependence
// criterion can report it (an inconsistent result: Get returns both).
package errpair
