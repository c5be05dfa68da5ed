// Package selectleak is the classic goroutine leak after a select's
// timeout (issue 29; Tu et al., ASPLOS 2019: a goroutine left waiting
// forever on a channel whose peer took a timeout or cancel branch):
// Fetch starts a goroutine that sends its result on an unbuffered
// channel (fetch.go:14) and waits for it in a select with a timeout
// (fetch.go:17, fetch.go:19). The test's computation is quick and its
// timeout a second, so an ordinary run passes and leaks nothing.
//
// Known bug: goroutine leak. If the timeout fires before the result is
// sent, Fetch returns and nobody ever receives: the sender blocks
// forever in its send (fetch.go:14), holding whatever it references.
// go test -race sees nothing: there is no data race.
//
// pecanvet predicts the leak from the recorded run (the send and its
// receive, the receive a select case with a timeout) and proves it by a
// replay that holds the sender at its send until the select took the
// timeout (the virtual clock fires it once nothing else moves): the test
// returns with the sender blocked in fetch.go:14.
package selectleak
