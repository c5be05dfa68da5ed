// Package abbafixed is abba fixed: Transfer takes the two accounts' locks
// in one global order (by account id), whichever is the source, so no
// goroutine can hold one while another holds the other and waits for the
// first. Nothing should be reported.
package abbafixed
