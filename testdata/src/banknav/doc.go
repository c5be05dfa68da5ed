// Package banknav is the "bank-nav" variant of the bank example in the
// AVFilter evaluation (Table 3): like package bankav, but Transfer holds a
// bank-wide transaction lock (Bank.tx) around both balance updates. This
// removes every atomicity violation on the balances: AVFilter's table has 8
// shared variables with over-approximate AV predictions for bank-nav-8 and 0
// after filtering.
//
// Known bug — NOT an atomicity violation: a write/write data race on the
// journal field Bank.last. Each transfer takes its sequence number inside
// the transaction, but records it as "the latest transfer" at bank.go:53,
// after releasing the lock. Two tellers' writes of last are unordered; if
// they land in the other order, the journal names an older transfer as the
// latest (TestTransfers fails: LastTransfer = 1 or 2, want 3).
//
// What the tool should report: exactly one data race, the two writes of
// Bank.last at bank.go:53 (write/write). No atomicity violation and no ASV:
// the reads and writes of Account.balance at bank.go:15 and bank.go:22 all
// lie inside the outermost critical section of Bank.tx, so no other transfer
// can interleave with them; an over-approximate predictor that ignores the
// transaction lock would report AVs on every balance, all infeasible.
//
// go test -race flags the race on last in a single run.
package banknav
