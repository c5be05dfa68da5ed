// Package syncmapcta is a Go idiom subject: a Board keeps each player's
// best score in a sync.Map; Submit loads the current best and stores the
// new score if it is better.
//
// Known bug: atomicity violation (check-then-act) on the sync.Map entry of
// the player: Load (board.go:12) and Store (board.go:14) are each atomic,
// but the pair is not. If another Submit's Load and Store for the same
// player fall between them, the lower score is stored last and the best
// score is lost (TestSubmit fails). Every access is a sync.Map operation:
// there is no data race, and go test -race reports nothing.
package syncmapcta
