// Package testifymsg is a wallet whose test asserts as testify users do:
// a Deposit reads the coins (Coins) and writes the sum back (set), each
// under the wallet's mutex, and TestDeposits runs two deposits, 5 ms
// apart, then checks the total with assertEqual, a copy of testify's
// assert.Equal that prints its message as testify does, on the lines after
// an empty "wallet_test.go:27: " (Error Trace, Error with expected and
// actual, Test, Messages).
//
// Known bug: atomicity violation (RWW) on Wallet.coins. Deposit reads the
// coins (wallet.go:15) and writes them (wallet.go:21) in two critical
// sections; the other deposit's write in between is lost (TestDeposits
// fails: "coins after both deposits: Not equal: expected: 60, actual: 40",
// or 50). The report must carry that message, not "wallet_test.go:27:"
// alone.
package testifymsg
