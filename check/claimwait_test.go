package check

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/static/depend"
)

// TestClaimSpans: a read of the value another goroutine's CAS stored
// names that claim (depend.Event.Claim): the CAS, the same goroutine's
// next write of the variable in that activation, and the pattern's
// events of the claim (claimbitfixed's Pop between a Push's claim and
// its end, asv-12). No claim when the last write is no CAS, when the
// goroutine leaves the activation before its next write of the
// variable, or when the schedule does not show that write (asv-9).
func TestClaimSpans(t *testing.T) {
	step := func(g string, op trace.Op, obj, site string) trace.Step {
		return trace.Step{G: g, Op: op, Obj: obj, Site: site, N: 1}
	}
	cas := step("g1", trace.AtomicRMW, "Q.idx#1", "q.go:41:26")
	load := step("g2", trace.AtomicLoad, "Q.idx#1", "q.go:54:20")
	fill := step("g1", trace.AtomicStore, "S#1", "q.go:44:25")
	end := step("g1", trace.AtomicStore, "Q.idx#1", "q.go:45:13")
	wait := step("g2", trace.AtomicLoad, "S#1", "q.go:59:17")
	leave := step("g1", trace.RegionEnd, "Q.push", "q.go:40:17")
	plain := step("g1", trace.AtomicStore, "Q.idx#1", "q.go:41:26")
	isCAS := func(site string) bool { return site == cas.Site }
	push := []depend.Frame{{ID: 1, Site: "q.go:22:17"}, {ID: 2, Site: "q.go:40:17"}}
	for _, tc := range []struct {
		name    string
		steps   []trace.Step
		anomaly []int
		want    *depend.Claim // of the load, the pattern's first event
	}{
		{"asv-12", []trace.Step{cas, load, fill, end, wait}, []int{1, 2, 3, 4},
			&depend.Claim{CAS: cas.Site, End: end.Site, Frames: push, Within: []int{1, 2}}},
		{"asv-12 after a plain store", []trace.Step{plain, load, fill, end, wait}, []int{1, 2, 3, 4}, nil},
		{"asv-12 with the claim's activation left before its end", []trace.Step{cas, load, fill, leave, end, wait}, []int{1, 2, 4, 5}, nil},
		{"asv-9's order, the end not shown", []trace.Step{cas, load, wait, fill}, []int{1, 2, 3}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &Finding{Schedule: &trace.Schedule{Steps: tc.steps, Anomaly: tc.anomaly}}
			evs := make([]depend.Event, len(tc.anomaly))
			for k, i := range tc.anomaly {
				st := tc.steps[i]
				evs[k] = depend.Event{Read: st.Op == trace.AtomicLoad || st.Op == trace.AtomicRMW, Write: st.Op != trace.AtomicLoad, Site: st.Site}
				if st.G == "g1" {
					evs[k].Frames = push
				}
			}
			claimSpans(f, evs, isCAS)
			got := evs[0].Claim
			switch {
			case tc.want == nil && got != nil:
				t.Errorf("Claim = %+v, want none", *got)
			case tc.want != nil && got == nil:
				t.Errorf("no Claim, want %+v", *tc.want)
			case tc.want != nil && (got.CAS != tc.want.CAS || got.End != tc.want.End || !slices.Equal(got.Within, tc.want.Within) || len(got.Frames) != len(tc.want.Frames)):
				t.Errorf("Claim = %+v, want %+v", *got, *tc.want)
			}
		})
	}
}

// TestRetries: a wait's read whose goroutine read again at the same site
// next in the replay's trace went round the loop (claimbitfixed's Pop,
// a nil slot before the producer's fill: asv-9), and so did one whose
// goroutine did something else than the exit's first atomic call (its
// bound's panic ends the activation), or nothing more in a complete
// trace. One that made that call next took the exit: not retried; nor
// one whose exit is unknown and did nothing more, nor one that did
// nothing more in a trace cut short (a panic loses the reorder buffer).
func TestRetries(t *testing.T) {
	const head = "# pecanvet trace v1\n" +
		"g1 atomic-rmw Q.idx#1 @q.go:41:26\n" +
		"g2 atomic-load Q.idx#1 @q.go:54:20\n" +
		"g2 atomic-load S#1 @q.go:59:17\n" +
		"g1 atomic-store S#1 @q.go:44:25\n"
	steps := []trace.Step{
		{G: "g1", Op: trace.AtomicRMW, Obj: "Q.idx#1", Site: "q.go:41:26", N: 1},
		{G: "g2", Op: trace.AtomicLoad, Obj: "Q.idx#1", Site: "q.go:54:20", N: 1},
		{G: "g2", Op: trace.AtomicLoad, Obj: "S#1", Site: "q.go:59:17", N: 1},
		{G: "g1", Op: trace.AtomicStore, Obj: "S#1", Site: "q.go:44:25", N: 1},
	}
	const exit = "q.go:60:11"
	for _, tc := range []struct {
		name, tail, exit string
		want             bool
	}{
		{"read again", "g1 atomic-store Q.idx#1 @q.go:45:13\ng2 atomic-load S#1 @q.go:59:17\n", exit, true},
		{"read again, the exit unknown", "g2 atomic-load S#1 @q.go:59:17\n", "", true},
		{"the exit's store", "g2 atomic-store S#1 @q.go:60:11\n", exit, false},
		{"left the activation", "g2 region-end Q.Pop @q.go:52:17\n", exit, true},
		{"left the activation, the exit unknown", "g2 region-end Q.Pop @q.go:52:17\n", "", false},
		{"nothing more", "", exit, true},
		{"nothing more, the exit unknown", "", "", false},
		{"nothing more in a trace cut short", "# truncated: panic\n", exit, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "replay.trace")
			if err := os.WriteFile(path, []byte(head+tc.tail), 0o644); err != nil {
				t.Fatal(err)
			}
			f := &Finding{Schedule: &trace.Schedule{Steps: steps, Anomaly: []int{0, 1, 2, 3}}, Verdict: replay.Verdict{Trace: path}}
			evs := []depend.Event{
				{Read: true, Write: true, Site: steps[0].Site},
				{Read: true, Site: steps[1].Site},
				{Read: true, Site: steps[2].Site},
				{Write: true, Site: steps[3].Site},
			}
			waits := func(site string) (string, bool) { return tc.exit, site == steps[2].Site }
			retries(f, evs, waits, &replayTrace{f: f})
			if evs[2].Retried != tc.want {
				t.Errorf("Retried = %v, want %v", evs[2].Retried, tc.want)
			}
			if evs[1].Retried {
				t.Errorf("the index load, no wait, Retried")
			}
		})
	}
}
