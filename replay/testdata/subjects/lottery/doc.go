// Package lottery is a Go version of the ConTest "Lottery" program
// (atomic-sets paper, Table 1): players buy tickets of a lottery with a
// fixed number of tickets; the player who buys the last ticket starts the
// draw. Every method locks the lottery's mutex.
//
// Known bug: atomicity violation (WWR on Lottery.sold, pattern 4 of the
// atomic-sets paper: the value read is not the one written last). Buy counts
// the ticket (the write of l.sold at lottery.go:24) and then checks whether
// it was the last one (Sold, the read at lottery.go:36) in two separate
// critical sections. If another player buys the last ticket in between, both
// players see the lottery sold out and both start a draw: two winners are
// drawn (TestDraw fails; the second draw can also pick a different winner).
//
// Every access is made with the mutex held, so go test -race does not flag
// it.
package lottery
