// Package airlinefixed is the fixed twin of package airline (ConTest
// "airline tickets", atomic-sets paper Table 1).
//
// Fixed: a Flight has a mutex that Sell and Sold hold, so checking the stop
// flag, selling the seat and stopping the sales are one atomic step. Nothing
// should be reported.
package airlinefixed
