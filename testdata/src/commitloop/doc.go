// Package commitloop is a real-module subject (pecanvet issue 26, session
// 30; cilium/statedb v0.9.4's commits and its derive job): a DB publishes
// an immutable root, each Commit loading the root afresh under the DB's
// mutex, building the next one from it and storing it with one atomic
// store (db.go:31); readers load the last committed root without a lock
// (db.go:37). Move, a job, opens a ledger with one commit, then moves each
// batch it receives from "in" to "out", one round per batch, each round
// ending in a select on the next batch.
//
// Known bug: an atomicity violation (WRW) on DB.root: each round commits
// the move in two transactions, "in" lowered (db.go:47), then "out"
// raised (db.go:48), and a Snapshot between the two commits sees the
// batch in neither (TestMove logs "in 7 + out 0 != 10" and does not fail).
// It is reported by dependence (intermediate state: Snapshot dereferences
// the root it loaded, db.go:37), at db.go:31; static/depend's loopEntered
// must not excuse it: both commits are in one round, before its wait.
//
// The state between the opening commit (db.go:44) and the first round's
// commits is the one the code before the loop leaves for it, as
// commitloopfixed shows; here it is judged with the rest (the events name
// Commit, not which of its three calls ran, and two of them share a
// round).
//
// go test -race flags nothing: the root is atomic, and each root a fresh
// map no one writes after its store.
package commitloop
