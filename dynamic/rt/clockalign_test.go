package rt

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestClockShift: the shift is ahead, under a period, and lands on the
// recorded phase.
func TestClockShift(t *testing.T) {
	base := time.Date(2026, 11, 29, 7, 38, 49, 300_000_000, time.UTC)
	for _, c := range []struct {
		now  time.Time
		want time.Duration
	}{
		{base, 0},
		{base.Add(11 * time.Second), 49 * time.Second}, // 07:39:00.3 to 07:39:49.3
		{base.Add(-2 * time.Second), 2 * time.Second},  // just before: 2 s on
		{base.Add(3*time.Minute + time.Millisecond), time.Minute - time.Millisecond},
	} {
		got := clockShift(base, c.now, time.Minute)
		if got != c.want {
			t.Errorf("clockShift(%v, %v) = %v, want %v", base, c.now, got, c.want)
		}
		if got < 0 || got >= time.Minute || c.now.Add(got).Sub(base)%time.Minute != 0 {
			t.Errorf("clockShift(%v, %v) = %v: not ahead to the phase", base, c.now, got)
		}
	}
}

// TestReplayClockAligned: a replay given the recording's clock
// (EnvClock) reads, at the test's start, the same second and fraction of
// the minute as the recording did there (gocron's TestTaskAt counts the
// scheduler's ticks to the next minute); without it, the phase is the
// real clock's, 37.25 s away here.
func TestReplayClockAligned(t *testing.T) {
	old := vclock.Load()
	t.Cleanup(func() { vclock.Store(old) })
	before := Now()
	dir := t.TempDir()
	p := filepath.Join(dir, "s.sched")
	os.WriteFile(p, []byte("anomaly race/RW 2 1\ng1 fork @main.go:1:1 n=1\ng1 read y @fig1.go:3:1 n=1\n"), 0o644)
	rec := time.Now().Add(-37250 * time.Millisecond)
	t.Setenv(EnvClock, strconv.FormatInt(rec.UnixNano(), 10))
	var now time.Time
	replayOnce(t, p, func() bool {
		now = Now()
		return fig1()
	})
	off := now.Sub(rec) % time.Minute
	if off > 5*time.Second && off < time.Minute-5*time.Second {
		t.Fatalf("the replay's clock reads %v at the start, %v past the recorded phase %v", now, off, rec)
	}
	if after := Now(); after.Before(before) {
		t.Errorf("the clock went back from %v to %v", before, after)
	}
}

// TestWriteClock: a recording notes its clock beside the trace; a replay
// (EnvSchedule set) does not.
func TestWriteClock(t *testing.T) {
	// A recording's process has replayed nothing: its clock is the real
	// one (the replays of earlier tests leave theirs off it).
	old := vclock.Load()
	vclock.Store(nil)
	t.Cleanup(func() { vclock.Store(old) })
	dir := t.TempDir()
	tr := filepath.Join(dir, "T.trace")
	before := time.Now()
	writeClock(tr)
	b, err := os.ReadFile(tr + ClockSuffix)
	if err != nil {
		t.Fatal(err)
	}
	ns, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil || time.Unix(0, ns).Before(before) || time.Unix(0, ns).After(time.Now()) {
		t.Fatalf("clock file holds %q, want the time of the call", b)
	}
	t.Setenv(EnvSchedule, filepath.Join(dir, "s.sched"))
	tr2 := filepath.Join(dir, "R.trace")
	writeClock(tr2)
	if _, err := os.Stat(tr2 + ClockSuffix); err == nil {
		t.Error("a replay wrote a clock file")
	}
}

// TestReplayListFields: a replay list line takes "explore" and
// "clock=N" after its four fields, in either order, and nothing else.
func TestReplayListFields(t *testing.T) {
	old := replayList
	t.Cleanup(func() { replayList = old })
	dir := t.TempDir()
	p := filepath.Join(dir, "list")
	os.WriteFile(p, []byte("TestA\ta.sched\ta.json\ta.trace\tclock=123\texplore\nTestA\tb.sched\tb.json\tb.trace\nTestB\tc.sched\tc.json\tc.trace\texplore\n"), 0o644)
	if err := readReplayList(p); err != nil {
		t.Fatal(err)
	}
	a, b := replayList["TestA"], replayList["TestB"]
	if len(a) != 2 || a[0].clock != 123 || !a[0].explore || a[1].clock != 0 || a[1].explore || len(b) != 1 || !b[0].explore || b[0].clock != 0 {
		t.Fatalf("read %+v", replayList)
	}
	for _, bad := range []string{"TestA\ta\tb\tc\tclock=x\n", "TestA\ta\tb\tc\tclock=0\n", "TestA\ta\tb\tc\tfast\n", "TestA\ta\tb\tc\texplore\texplore\n", "TestA\ta\tb\n"} {
		os.WriteFile(p, []byte(bad), 0o644)
		if err := readReplayList(p); err == nil {
			t.Errorf("%q: read without error", bad)
		}
	}
}
