// Package drvexpirefixed is drvexpire with Expire counting the key before
// it lets the mutex go: every access to Expirer.pending holds it, and two
// methods called from two goroutines by a generated driver leave what
// one of their sequential orders leaves. Nothing should be reported.
package drvexpirefixed
