// Package pingpong is a Go version of the ConTest "PingPong" program
// (atomic-sets paper, Table 1): two players share a table with one ball. To
// hit it, a player lifts the ball off the table (the table is empty while
// the ball is in the air), counts the hit and puts the ball back.
//
// Known bug: data race and atomicity violation (WRW on Table.ball, pattern 3
// of the atomic-sets paper: an intermediate state is observed). Hit reads
// t.ball at pingpong.go:27, writes nil at pingpong.go:28 and writes the ball
// back at pingpong.go:31, without synchronization. If the other player reads
// the table between the two writes, it gets no ball and Hit panics with a
// nil pointer dereference at pingpong.go:29 (the "ball may be null" bug).
//
// go test -race flags it in a single run.
//
// Expected: the data races and atomicity violations above are reported; the
// atomic-set-serializability violation between Table.ball and Ball.Hits at
// pingpong.go:28 (writes only) has neither an effect nor a dependence: an
// interleaving without effect, shown with -v.
package pingpong
