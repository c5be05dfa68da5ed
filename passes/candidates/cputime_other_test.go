//go:build !unix

package candidates_test

import "time"

// cpuTime: not measured here (TestStdlib falls back to wall time).
func cpuTime() (time.Duration, bool) { return 0, false }
