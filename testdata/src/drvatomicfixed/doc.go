// Package drvatomicfixed is drvatomic with Write loading the flag
// atomically (conn.go:24): no data race. A Write that reads the flag
// before the Close succeeds and one after it fails, as in either serial
// order; nothing should be reported.
package drvatomicfixed
