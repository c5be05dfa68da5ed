package main

import (
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// raceWall times one `go test -race -count=1 pkg` in dir, build included,
// as the corpus's counterpart of pecanvet check's wall time (whose target
// is at most 2x). The race runtime's exit sleep is included, as users see
// it.
func raceWall(dir, pkg string) time.Duration {
	cmd := exec.Command("go", "test", "-race", "-count=1", pkg)
	cmd.Dir = dir
	start := time.Now()
	cmd.Run() // a race makes it fail; only the time matters here
	return time.Since(start)
}

// wallSummary is the corpus's summary line for wall time: pecanvet check
// (record, predict, replay, build included) against go test -race -count=1,
// summed over the subjects, with the worst subject.
func wallSummary(rows []*row) string {
	var check, race time.Duration
	worst, worstName := 0.0, ""
	for _, r := range rows {
		check += r.checkWall
		race += r.raceWall
		if r.raceWall > 0 {
			if x := r.checkWall.Seconds() / r.raceWall.Seconds(); x > worst {
				worst, worstName = x, r.name
			}
		}
	}
	if race == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "- Wall time, build included, same warm cache: `pecanvet check` %s against `go test -race -count=1` %s over all subjects (%s); the worst subject is %s at %.1fx.\n",
		secs(check), secs(race), ratio(check, race), worstName, worst)
	return b.String()
}
