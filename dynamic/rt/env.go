package rt

import "os"

// The recorder's environment is for this process alone.
//
// A test may run its own test binary again as a child, with os.Environ()
// (x/sync's singleflight checks that a panic in DoChan crashes the
// program so). The child would inherit PECANVET_TRACE and write the same
// trace file as its parent, at the same time: a corrupt trace. So the
// PECANVET_* variables are read once, before any init of this package
// uses them, and removed from the environment: children run unrecorded
// and follow no schedule. (Only rt's own variables: the program may read
// others of its own.)
var env = takeEnv()

// rtEnv lists rt's variables.
var rtEnv = []string{EnvTrace, EnvFromTest, EnvTraceDir, EnvSchedule, EnvVerdict, EnvStall, EnvQuiet,
	EnvDrain, EnvHang, EnvPerturb, EnvParentsFirst, EnvMaxEvents, EnvMaxGoroutines, EnvReplayList, EnvExplore, EnvMarkEnd, EnvFreeWhole, EnvFreeUnscheduled, EnvFreeBound, EnvClock}

func takeEnv() map[string]string {
	m := map[string]string{}
	for _, k := range rtEnv {
		if v, ok := os.LookupEnv(k); ok {
			m[k] = v
			os.Unsetenv(k)
		}
	}
	return m
}

// getenv is os.Getenv for the PECANVET_* variables this process started
// with (or, for rt's own tests, set since).
func getenv(k string) string {
	if v, ok := env[k]; ok {
		return v
	}
	return os.Getenv(k)
}
