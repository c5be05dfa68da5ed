package check

import (
	"testing"

	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

// TestStalledOnLate: only a stall whose awaited goroutine was not waiting
// at a gate is retried.
func TestStalledOnLate(t *testing.T) {
	s := &trace.Schedule{Steps: []trace.Step{{G: "g1", Op: trace.Write}, {G: "g2", Op: trace.Read}}}
	for _, c := range []struct {
		v    replay.Verdict
		want bool
	}{
		{replay.Verdict{Verdict: replay.Deadlock, Step: 2, Message: "nothing moved for 2s; step 2 (g2 read) never came"}, true},
		{replay.Verdict{Verdict: replay.Deadlock, Step: 2, Message: "nothing moved for 2s; step 2 (g2 read) never came", Waiting: []string{"g1 waits at g1 write"}}, true},
		{replay.Verdict{Verdict: replay.Deadlock, Step: 2, Message: "nothing moved for 2s; step 2 (g2 read) never came", Waiting: []string{"g2 waits at g2 write"}}, false},
		{replay.Verdict{Verdict: replay.Deadlock, Step: 2, Message: "goroutine g2 blocks in step 2"}, false},
		{replay.Verdict{Verdict: replay.Diverged, Step: 2, Message: "nothing moved"}, false},
		{replay.Verdict{Verdict: replay.Deadlock, Step: 3, Message: "nothing moved"}, false},
	} {
		if got := stalledOnLate(c.v, s); got != c.want {
			t.Errorf("%+v: stalledOnLate = %v, want %v", c.v, got, c.want)
		}
	}
}
