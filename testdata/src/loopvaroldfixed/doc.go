// Package loopvaroldfixed is the fixed twin of package loopvarold.
//
// Fixed: the same code in the module's language version (Go 1.24): since
// Go 1.22 each iteration of a range loop has its own iteration variables,
// so the worker's closure captures a variable that no later iteration
// writes. Nothing should be reported.
package loopvaroldfixed
