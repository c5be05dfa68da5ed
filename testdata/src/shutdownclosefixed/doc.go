// Package shutdownclosefixed is the fixed twin of package shutdownclose,
// as go-sse v0.12.0's TestJoe_Shutdown uses Joe.Shutdown: two concurrent
// Shutdowns each close the hub's done channel under the recover that
// turns the second close's panic into ErrClosed, and the test wants one
// nil and one ErrClosed, whichever comes first. Either order of the two
// closes gives the outcome of two serial calls, and two closes are no
// data race. Nothing should be reported.
package shutdownclosefixed
