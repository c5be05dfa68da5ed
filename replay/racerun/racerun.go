// Package racerun confirms, with Go's race detector, the data races that
// replay cannot show back to back.
//
// Some races have no schedule that runs the two accesses back to back: the
// later goroutine only gets to its access after it saw the earlier one's
// effect, through something Go's memory model does not count as
// synchronization (len or cap of a channel, a select that took its
// default because a buffer was full). Go's race test data has three such
// tests (TestRaceChanSendLen, TestRaceChanRecvLen, TestRaceChanSendSend).
// pecanvet's replay of every reordering diverges on them, yet in the
// recorded run nothing orders the accesses (predict/hb.Ordered).
//
// Nothing ordering them in the recording is not proof: pecanvet does not
// record the synchronization inside the standard library and other
// uninstrumented code, and -race does. So such a pair is reported only if
// the race detector, running the test, reports a race between the same two
// sites. The race detector reports only accesses that happens-before does
// not order, so this adds no false positive; what it costs is a -race
// build of the package, made only when such a pair exists.
package racerun

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
)

// Access is one side of a race report: where the access was made, in the
// package's own code (the first frame of its stack in dir, or the first
// frame if none is).
type Access struct {
	Write bool
	File  string // base name
	Line  int
}

// Race is one "WARNING: DATA RACE" report.
type Race struct {
	Current, Previous Access
}

// Has reports whether r is a race between the accesses at the two sites
// (base file name and line), in either order.
func (r Race) Has(f1 string, l1 int, f2 string, l2 int) bool {
	c, p := r.Current, r.Previous
	return c.File == f1 && c.Line == l1 && p.File == f2 && p.Line == l2 ||
		c.File == f2 && c.Line == l2 && p.File == f1 && p.Line == l1
}

// Run runs the tests of the -race test binary bin in dir, count times each
// (one process, at most timeout), and returns the races it reported. The
// tests' own outcome does not matter: a race fails them. More than one run
// is for the races whose sites depend on the schedule (which of two
// goroutines' non-blocking sends found room); the race detector reports a
// pair of sites once per process, so the output does not grow with count.
func Run(ctx context.Context, bin, dir string, tests []string, count int, timeout time.Duration) ([]Race, error) {
	return RunUntil(ctx, bin, dir, tests, count, timeout, nil)
}

// RunUntil is Run that ends the process as soon as the races reported so
// far satisfy enough (nil: never). A caller that asks about given pairs
// of sites has its answer once each was reported: the runs left would
// report each pair at most again, and a test that then hangs (one that
// waits for a timer's callback a late goroutine never triggers) no longer
// holds the check to the bound. go-deadlock's checks spent the whole
// bound, 2 minutes, in the race detector's runs of
// TestNormalDeadlockDetection in 2 of 6 checks at main (load 10–25): a
// run after the first in one process can hang (RunRounds).
func RunUntil(ctx context.Context, bin, dir string, tests []string, count int, timeout time.Duration, enough func([]Race) bool) ([]Race, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	qs := make([]string, len(tests))
	for i, t := range tests {
		qs[i] = regexp.QuoteMeta(t)
	}
	cmd := exec.Command(bin, append([]string{"-test.run", "^(" + strings.Join(qs, "|") + ")$", "-test.count=" + strconv.Itoa(max(count, 1)),
		"-test.timeout", (timeout + 30*time.Second).String()}, testbin.Flags(dir)...)...)
	wd, tmp, _, rmTmp := testbin.PrivateFor(dir, tests)
	defer rmTmp()
	cmd.Dir = wd
	// No second of sleep at exit; report every race, not only the first.
	cmd.Env = append(os.Environ(), "GORACE=halt_on_error=0 atexit_sleep_ms=0", tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := capped{dir: dir, enough: enough, hit: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-ctx.Done():
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	case <-out.hit:
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	return Parse(out.b, dir), nil
}

// RunRounds is RunUntil that runs the tests once first, and then the
// count-1 runs left (one more process) only as far as the first run's
// time says they take at most wall together: Go's race testdata runs
// its milliseconds-long tests count times, but a test that waits for a
// wall-clock deadline (jasonlvhit/gocron's TestTaskAt, the next minute:
// a -race build runs on the real clock) would wait it out in every run,
// and its count of 16 took the caller's whole 2-minute bound after two
// runs. The races of both processes are returned.
func RunRounds(ctx context.Context, bin, dir string, tests []string, count int, timeout, wall time.Duration, enough func([]Race) bool) ([]Race, error) {
	start := time.Now()
	races, err := RunUntil(ctx, bin, dir, tests, 1, timeout, enough)
	if err != nil || count <= 1 || enough != nil && enough(races) {
		return races, err
	}
	round := max(time.Since(start), time.Millisecond)
	more := min(count-1, int(wall/round))
	// The runs left are expected to take wall together. A test that
	// hangs in a later run of one process holds them to the caller's
	// bound: go-deadlock's TestNormalDeadlockDetection waits for a
	// detector's callback that a later run may never get (go test -race
	// -count=3 and -count=16 of it hung for good, 2 and 4 did not), and
	// 3 of 6 checks of the module spent 2 minutes there. So the runs left
	// get wall and four first rounds more; what they reported by then is
	// kept.
	left := min(timeout-time.Since(start), wall+4*round)
	if more < 1 || left <= 0 || ctx.Err() != nil {
		return races, nil
	}
	var both func([]Race) bool
	if enough != nil {
		both = func(r []Race) bool { return enough(append(slices.Clone(races), r...)) }
	}
	rest, err := RunUntil(ctx, bin, dir, tests, more, left, both)
	if err != nil {
		return races, nil
	}
	for _, r := range rest {
		if !slices.Contains(races, r) {
			races = append(races, r)
		}
	}
	return races, nil
}

// capped keeps the first 8 MiB written to it: the reports come first.
// With enough, it closes hit once the complete reports it holds satisfy
// it. (exec calls Write from one goroutine: stdout and stderr are the
// same writer.)
type capped struct {
	b      []byte
	dir    string
	enough func([]Race) bool
	hit    chan struct{}
	// scanned: c.b before it holds no reportLine not yet acted on.
	scanned int
	done    bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := 8<<20 - len(c.b); room > 0 {
		c.b = append(c.b, p[:min(len(p), room)]...)
	}
	if c.enough != nil && !c.done {
		// Parse again only when a report's first or last line came.
		if n := bytes.Count(c.b[c.scanned:], reportLine); n > 0 {
			if c.enough(Parse(c.b, c.dir)) {
				c.done = true
				close(c.hit)
			}
		}
		c.scanned = max(c.scanned, len(c.b)-len(reportLine)+1)
	}
	return len(p), nil
}

// reportLine opens and closes a race report.
var reportLine = []byte("==================")

var (
	accessLine = regexp.MustCompile(`^(Previous )?(?i:(atomic )?(read|write))( at 0x[0-9a-f]+)? by `)
	frameLine  = regexp.MustCompile(`^\s+(\S+\.go):(\d+)( \+0x[0-9a-f]+)?$`)
)

// Parse reads the race reports in a test binary's output. dir is the
// package directory: an access is placed at its stack's first frame in a
// file of dir (the code that made it), or at its first frame if none is.
// Output that is not a report is skipped; a report cut short is dropped.
func Parse(out []byte, dir string) []Race {
	var races []Race
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	const (
		outside = iota
		accesses
		rest // where the goroutines were created, locks held: not accesses
	)
	state := outside
	var acc []Access
	var frames [][2]string // frames of the last access's stack
	place := func() {
		if len(acc) == 0 || len(frames) == 0 {
			return
		}
		pick := frames[0]
		for _, f := range frames {
			if dir != "" && filepath.Dir(f[0]) == filepath.Clean(dir) {
				pick = f
				break
			}
		}
		a := &acc[len(acc)-1]
		a.File = filepath.Base(pick[0])
		a.Line, _ = strconv.Atoi(pick[1])
		frames = nil
	}
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "WARNING: DATA RACE"):
			state, acc, frames = accesses, nil, nil
		case state == outside:
		case strings.HasPrefix(l, "=================="):
			place()
			if len(acc) == 2 && acc[0].Line > 0 && acc[1].Line > 0 {
				races = append(races, Race{Current: acc[0], Previous: acc[1]})
			}
			state = outside
		case state == rest:
		case accessLine.MatchString(l):
			place()
			m := accessLine.FindStringSubmatch(l)
			acc = append(acc, Access{Write: strings.EqualFold(m[3], "write")})
		case strings.HasPrefix(l, "Goroutine ") || strings.HasPrefix(l, "Mutex "):
			place()
			state = rest
		default:
			if m := frameLine.FindStringSubmatch(l); m != nil && len(acc) > 0 {
				frames = append(frames, [2]string{m[1], m[2]})
			}
		}
	}
	return races
}
