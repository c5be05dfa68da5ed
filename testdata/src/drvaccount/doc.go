// Package drvaccount is the account shape of issue 27: an Account whose
// mutex guards its balance in Balance and Withdraw, and whose Deposit
// adds to the balance without taking it. The package has no tests, as a
// new user's library might not: pecanvet finds the bug only through the
// drivers it generates (static/driver), each calling two methods of
// Account from two goroutines.
//
// Known bug: data races on Account.balance between Deposit's unlocked
// read and write (account.go:35) and another Deposit, Balance's locked
// read (account.go:18) or Withdraw's locked check (account.go:25).
// Account holds a sync.Mutex, so it is meant for concurrent use, and each
// race is reported as any race is, with a clause saying that a generated
// driver found it, whether or not its calls' outcome is wrong. Two
// concurrent Deposit(1) also lose one: an atomicity violation (RWW) at
// account.go:35 leaving Balance() = 1 where either order leaves 2.
//
// -race, 1 run: no test to run.
package drvaccount
