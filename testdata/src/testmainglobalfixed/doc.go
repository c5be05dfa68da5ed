// Package testmainglobalfixed is the fixed twin of package testmainglobal.
//
// Fixed: TestMain sets the limit itself before m.Run, so the write happens
// before every test (as the package-level initializer does); a second test
// runs a subtest and goroutines of its own that read it too. Nothing
// should be reported: initialization and TestMain's code before m.Run
// happen before the tests.
package testmainglobalfixed
