// Package drvserialfixed is drvserial with Add's doc comment saying what
// benbjohnson/clock's Mock.Add says: "This should only be called from a
// single goroutine at a time." The package's contract keeps two Adds
// apart, so a generated driver calling Add and Add from two goroutines
// would make a use the package rules out; static/driver makes none
// (serialPair) and says so in a note. Nothing should be reported.
package drvserialfixed
