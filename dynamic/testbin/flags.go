package testbin

import (
	"slices"
	"sync"
)

// Test flags a package's test processes take besides their own: today
// -test.short, for suites whose long tests ask testing.Short() (kcp-go's
// and smux's multi-gigabyte transfers), as a user's CI runs them with
// go test -short. Every process that runs a package's tests, recorded,
// replayed, plain or under the race detector, takes them, so that a
// replay runs the code the recording ran. They are the package's, keyed
// by its directory as its lock is (alone.go): New sets them for the
// packages it builds.
var testFlags sync.Map // package directory → []string

// setFlags records the extra test flags of the package in dir.
func setFlags(dir string, flags []string) {
	if len(flags) == 0 {
		testFlags.Delete(dir)
		return
	}
	testFlags.Store(dir, slices.Clone(flags))
}

// Flags returns the extra test flags of the package in dir, to append to
// a test binary's command line.
func Flags(dir string) []string {
	if f, ok := testFlags.Load(dir); ok {
		return slices.Clone(f.([]string))
	}
	return nil
}
