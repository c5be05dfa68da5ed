// Package airline is a Go version of the ConTest "airline tickets" program
// (atomic-sets paper, Table 1 "airlinesTckts"): sales agents, one goroutine
// each, sell seats of a flight; the agent that sells the last seat stops the
// sales.
//
// Known bug: data races and an atomic-set-serializability violation on the
// atomic set {Flight.sold, Flight.stopSales}. Sell checks f.stopSales at
// airline.go:15, increments f.sold at airline.go:18, compares it with the
// capacity at airline.go:19 and sets f.stopSales at airline.go:20, all
// without synchronization. An agent that reads stopSales before another
// agent sets it sells a seat the flight does not have (overbooking);
// interleaved increments lose a sale (RWW on sold). TestSell fails with 3
// tickets sold for 2 seats, or with sold != tickets issued.
//
// go test -race flags it in a single run.
package airline
