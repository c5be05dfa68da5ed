// Package eventloopfixed is the fixed twin of package eventloop (a
// for-select loop that applies the values it receives).
//
// Fixed: Run writes each value once, without an intermediate state. What
// remains is the reader falling between the write of one value and that
// of the next: the receive between them is a blocking point that ends one
// unit of work, so that is no atomicity violation. Nothing should be
// reported.
package eventloopfixed
