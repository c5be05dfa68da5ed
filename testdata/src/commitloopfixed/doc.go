// Package commitloopfixed is commitloop with each round's move committed
// in one transaction (db.go:47), as cilium/statedb's derive job commits
// each batch. What is left is silent by design: the job's opening commit
// (db.go:44) and its first round's commit are one unit of the recording,
// which ends a unit at each wait and finds none before the first round's
// commit, and a Snapshot between them reads the opened ledger and uses it
// (an atomicity violation, WRW on DB.root, that the replay reproduces).
// But every round ends in a select on the next batch, so the loop's later
// rounds are units that begin at its head: the loop's entry is a
// boundary between units as its head is, and the state there is what the
// code before the loop leaves for it, a committed root (static/depend's
// loopEntered; statedb's write_txn.go:444 av, TestDerive, was this).
// Nothing should be reported.
package commitloopfixed
