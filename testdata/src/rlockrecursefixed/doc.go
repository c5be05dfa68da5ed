// Package rlockrecursefixed is rlockrecurse with Get reading the default
// under its one read lock instead of calling Default (kubernetes#62464's
// fix). Nothing should be reported.
package rlockrecursefixed
