// Package helper runs subtests as testify's suite.Run does: its t.Run
// calls are outside the package under test, so they are not instrumented.
package helper

import (
	"strconv"
	"testing"
)

// Run runs each f as a subtest of t, in turn.
func Run(t *testing.T, fs ...func(*testing.T)) {
	for i, f := range fs {
		t.Run(strconv.Itoa(i), f)
	}
}
