// Package replay runs a test under a predicted schedule and says whether
// the anomaly was reproduced.
//
// It proves or prunes predicted anomalies: it runs a test of an
// instrumented build under a generated schedule, with the deterministic
// scheduler of the recorder runtime (dynamic/rt, replay.go) switched on,
// and returns the verdict — reproduced, diverged, deadlock, timeout,
// wrong-object (the right sites in order, but other objects) — with
// what the program did under the schedule: a panic, a failed test (PECAN's
// EXP column), or nothing. Only reproduced anomalies are ever reported.
package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"go/build"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// Verdicts.
const (
	Reproduced = "reproduced" // the schedule ran to its end: the anomaly happened
	Diverged   = "diverged"   // a goroutine took another branch
	Deadlock   = "deadlock"   // nobody could move
	Timeout    = "timeout"    // the wall-clock bound was hit
	Ended      = "ended"      // the program ended (or died) before the schedule did
	// WrongObject: the anomaly's events ran in order at the right sites
	// but not on the objects of the prediction (a variable allocated
	// afresh, or at an address another one had: see dynamic/rt,
	// replay_objects.go).
	WrongObject = "wrong-object"

	// interrupted is the runtime's verdict when a goroutine takes another
	// path after the other goroutines' part of the anomaly ran; Run turns
	// it into Reproduced if the program then failed, else Diverged.
	interrupted = "interrupted"
	// explored is the runtime's verdict when, with Options.Explore, a
	// goroutine takes another path after one of its changed reads
	// (trace.Change) ran: the program then ran free. judge turns it into
	// Reproduced if the test then failed or panicked, otherwise than its
	// recorded run, else Diverged; Verdict.Explored says so either way.
	explored = "explored"
	// running is the runtime's provisional verdict after an anomaly step.
	running = "running"
)

// The bounds of a replay whose Options leave them zero.
const (
	DefaultTimeout = 30 * time.Second
	DefaultStall   = 2 * time.Second
)

// Options bound one replay.
type Options struct {
	Timeout time.Duration // wall clock; 0: DefaultTimeout
	Stall   time.Duration // no progress for this long is a deadlock; 0: DefaultStall
	// Baseline is the consequence (as Consequence gives it) of the
	// test's recorded run, if that failed or panicked: the same failure in
	// a replay is the test's own, not the anomaly's.
	Baseline         string
	BaselinePanicked bool
	// FailsPlain: the test fails in a normal run too, without pecanvet
	// (its recording failed, and so did an uninstrumented run). Its
	// failures then say nothing about the interleaving, whatever their
	// message: yamux's TestSendData_VeryLarge, failing under load with a
	// connection write timeout, failed in a replay with "session
	// shutdown" instead, the same timeout seen later. Only a panic the
	// recorded run did not have still counts.
	FailsPlain bool
	// Logged is the recorded run's log lines (LogLines): a replay that
	// prints them again has not failed by them.
	Logged []string
	// Src is the test's package directory, where the places of its
	// output's lines are (a t.Skip's reason is no failure): RunFile and
	// RunBatch set it.
	Src string
	// Explore lets a divergence that follows a changed read of the
	// diverging goroutine run free to the test's end instead of ending
	// the replay (Verdict.Explored).
	Explore bool
	// MarkEnd: tell what the test printed while the schedule ran from
	// what it printed once it ran free (Verdict.Scheduled).
	MarkEnd bool
	// WholeRun records the free run after the verdict whole: its atomic
	// operations, unit markers and locks past the runtime's bound too
	// (dynamic/rt's EnvFreeWhole), for a judge that looks through all
	// of it (check's interleavingIn). RunFile only.
	WholeRun bool
	// FreeBound, when positive, ends the process once the free run after
	// a non-blocking anomaly's verdict has done that many operations
	// (dynamic/rt's EnvFreeBound): the test did not end, as at Timeout,
	// and Verdict.FreeStop says so. RunFile only.
	FreeBound int64
	// FreeFrom, when positive, lets the goroutines of which the schedule
	// names no step run free from its step FreeFrom (from 1) on, instead
	// of waiting for its end (a control replay: check/control.go).
	FreeFrom int
	// Excused, if set, is a line by which the test says its failure is
	// none of the code's under test (a generated driver's cleanup copied
	// from a test failed it: static/driver's CleanupFailLog). A replay
	// whose output holds it, and that neither panicked nor was killed,
	// passed.
	Excused string
	// Clock is the clock at the test's start in the recorded run
	// (record.Test.Clock): the replay starts its clock at the same place
	// in the minute (dynamic/rt's EnvClock). Zero: as it comes.
	Clock time.Time
}

// Verdict is the outcome of one replay.
type Verdict struct {
	Verdict   string   `json:"verdict"`
	Step      int      `json:"step,omitempty"` // step at which it was decided
	Steps     int      `json:"steps"`
	Goroutine string   `json:"goroutine,omitempty"`
	Expected  string   `json:"expected,omitempty"`
	Actual    string   `json:"actual,omitempty"`
	Waiting   []string `json:"waiting,omitempty"`
	Message   string   `json:"message,omitempty"`
	// Hang: after the verdict every goroutine blocked for good, so the
	// replay ended the process (who blocks where).
	Hang string `json:"hang,omitempty"`
	// FreeStop: the runtime ended the process when the free run after
	// the verdict passed Options.FreeBound (why). Judged as a process
	// killed at the time bound: the test gave no verdict of its own.
	FreeStop string `json:"free_stop,omitempty"`
	// RaceDetector: a data race that no schedule runs back to back (the
	// later access is reached only after observing the earlier one through
	// something that does not synchronize), which the recorded run showed
	// unordered by happens-before and Go's race detector reported between
	// the same two sites (replay/racerun). Steps are the recorded run's.
	RaceDetector bool `json:"race_detector,omitempty"`
	// Outside: a deadlock whose stuck step's goroutine waits outside
	// recorded operations: not started yet (started by uninstrumented
	// code) or blocked in uninstrumented code (rt.Verdict).
	Outside bool `json:"outside,omitempty"`
	// Unstarted (with Outside): the stuck step's goroutine had not started
	// at all; Roots: the roots (goroutines without a recorded fork) that
	// had (rt.Verdict).
	Unstarted bool     `json:"unstarted,omitempty"`
	Roots     []string `json:"roots,omitempty"`
	// Deadlocked: the schedule was a lock-order inversion's (pattern kind
	// "deadlock") and the replay deadlocked where it predicted: each of
	// the goroutines listed ("g1.1 in lock B#1 @x.go:11") blocked inside
	// its waiting acquisition, holding the lock the other waits for
	// (rt.Verdict). The runtime's verdict is "deadlock", which for every
	// other schedule prunes it; for this one it is the proof, so Run
	// returns Reproduced, and the deadlock is the consequence.
	Deadlocked []string `json:"deadlocked,omitempty"`
	// Leaked: the schedule was a goroutine leak's (pattern kind "leak")
	// and, when the test had returned, the goroutine of its stranded
	// channel operation was blocked there forever, its partner's select
	// gone (rt.Verdict), as "g1.1.2 in chan send ch#1 @x.go:12". The
	// consequence says so; the test itself passes.
	Leaked []string `json:"leaked,omitempty"`
	// Interrupted: the runtime's verdict was "interrupted" (a goroutine
	// took another path after the other goroutines' part of the anomaly
	// ran), turned into Reproduced or Diverged by how the program ended:
	// the program ran free from there, so that verdict is not a fact
	// about the schedule's first steps (check's failedWithin).
	Interrupted bool `json:"-"`
	// Explored: the runtime's verdict was "explored": goroutine
	// Goroutine took another path at step Step after its changed read at
	// step Changed, and the program ran free from there, with no more
	// schedule. Turned into Reproduced if the test then failed or
	// panicked otherwise than its recorded run did (not hung: a free run
	// is not controlled), else Diverged. Only the first Step-1 steps ran
	// as scheduled: the anomaly's own order need not have happened.
	Explored bool `json:"-"`
	Changed  int  `json:"changed,omitempty"`
	// Fired: the numbers of steps run when the program's clock fired a
	// timer's, ticker's or AfterFunc's event (not a sleep's) while the
	// schedule ran, each once (rt.Verdict): a goroutine waiting on a
	// timer saw time pass between step n-1 and step n.
	Fired []int `json:"fired,omitempty"`
	// Stalled (set by check, not the runtime): a stall verdict ("nothing
	// moved") that the stall bound gave twice at the same step, the
	// second time at four times the bound, while the goroutine owning the
	// step was outside recorded operations both times (check's
	// replayRetrying): not the load.
	Stalled bool `json:"-"`
	// Detour (a race's Reproduced): a goroutine took another path before
	// its race access and came back to the schedule at a later step of
	// its own, where the race then ran back to back (rt.Verdict): where it
	// left and came back. How the test ended may be the other path's
	// doing, so it is no effect of the race (check's Effect).
	Detour string `json:"detour,omitempty"`
	// Silent: the anomaly's steps (numbered from 1) that were atomic
	// stores of the value their location already held (rt.Verdict):
	// what they wrote, every read there saw before them too.
	Silent []int `json:"silent,omitempty"`
	// Rewaited and AfterEnd (a lost signal's Deadlocked): its waiter's
	// Wait of the schedule's last step returned, woken by a later signal,
	// before it blocked in the Wait it was found in; and that was after
	// the test had returned (rt.Verdict). check's restingWaiter.
	Rewaited bool `json:"rewaited,omitempty"`
	AfterEnd bool `json:"after_end,omitempty"`
	// Bubble: the replay held goroutines of a testing/synctest bubble at
	// its gates, which synctest counts as durably blocked: the bubble's
	// fake clock may have moved, or its "deadlock" panic come, where no
	// real run's would (rt.Verdict). How the test ended is no evidence
	// (check's Effect), and a verdict that only a failure proves
	// (explored, interrupted) is not proved.
	Bubble bool `json:"bubble,omitempty"`
	// AsBaseline: the test failed the way its recorded run did, without
	// the schedule's help; no evidence that the interleaving matters.
	AsBaseline bool `json:"-"`

	// What the program did under the schedule.
	Passed      bool   `json:"passed"`
	Panicked    bool   `json:"panicked,omitempty"`
	Consequence string `json:"consequence,omitempty"` // panic message or failed assertion
	// PanicAt (with Panicked): where the panicking goroutine was,
	// "/path/file.go:LINE", its innermost frame outside the Go root and
	// pecanvet's runtime (PanicFrame); "" if none. An order violation is
	// proved only by a panic outside the package's tests (check).
	PanicAt string `json:"-"`
	// Unended: the process was killed at the replay's time bound with no
	// failure or panic of the test's own and no hang proven: the test
	// gave no verdict, and not passing is no effect of the schedule (a
	// test that runs long under replay, or whose goroutines wait on
	// timers). Consequence says it did not end.
	Unended bool `json:"unended,omitempty"`
	// Scheduled (with Options.MarkEnd): the failed assertions, as
	// Consequence states them, that the test printed before the
	// schedule's last step had run, while every goroutine still followed
	// it; "" if it did not run to its end, or the test printed none then.
	Scheduled string `json:"-"`
	Output    string `json:"-"`
	Trace     string `json:"-"` // path of the replay's own trace (removed unless kept)
	Wall      time.Duration
}

// Run replays test of package pkg in build b under sched. dir is a scratch
// directory for the schedule, verdict and trace files.
func Run(ctx context.Context, b *testbin.Build, pkg, test string, sched *trace.Schedule, dir string, opt Options) Verdict {
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	if opt.Stall <= 0 {
		opt.Stall = DefaultStall
	}
	v := Verdict{Steps: len(sched.Steps)}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		v.Verdict, v.Message = Ended, err.Error()
		return v
	}
	schedPath := filepath.Join(dir, "schedule")
	f, err := os.Create(schedPath)
	if err == nil {
		_, err = sched.WriteTo(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		v.Verdict, v.Message = Ended, "writing the schedule: "+err.Error()
		return v
	}
	return RunFile(ctx, b, pkg, test, schedPath, len(sched.Steps), dir, opt)
}

// RunFile is Run with the schedule already in a file (trace.WriteSchedule
// writes one without holding its steps in memory), of steps steps.
func RunFile(ctx context.Context, b *testbin.Build, pkg, test, schedPath string, steps int, dir string, opt Options) Verdict {
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	if opt.Src == "" && b != nil {
		opt.Src = b.Dirs[pkg]
	}
	if opt.Stall <= 0 {
		opt.Stall = DefaultStall
	}
	v := Verdict{Steps: steps}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		v.Verdict, v.Message = Ended, err.Error()
		return v
	}
	verdictPath := filepath.Join(dir, "verdict.json")
	tracePath := filepath.Join(dir, "replay.trace")
	os.Remove(verdictPath)
	env := []string{
		"PECANVET_TRACE=" + tracePath,
		"PECANVET_SCHEDULE=" + schedPath,
		"PECANVET_VERDICT=" + verdictPath,
		"PECANVET_STALL_MS=" + strconv.FormatInt(opt.Stall.Milliseconds(), 10),
	}
	if opt.Explore {
		env = append(env, "PECANVET_EXPLORE=1")
	}
	if opt.MarkEnd {
		env = append(env, "PECANVET_MARK_END=1")
	}
	if opt.WholeRun {
		env = append(env, "PECANVET_FREE_WHOLE=1")
	}
	if opt.FreeBound > 0 {
		env = append(env, "PECANVET_FREE_BOUND="+strconv.FormatInt(opt.FreeBound, 10))
	}
	if opt.FreeFrom > 0 {
		env = append(env, "PECANVET_FREE_UNSCHEDULED="+strconv.Itoa(opt.FreeFrom))
	}
	if !opt.Clock.IsZero() {
		env = append(env, "PECANVET_CLOCK="+strconv.FormatInt(opt.Clock.UnixNano(), 10))
	}
	env = append(env, b.TestEnv(pkg, test)...)
	env = append(env, b.ReplayEnv(pkg)...)
	r := testbin.RunTest(ctx, b.Binaries[pkg], b.Dirs[pkg], test, env, opt.Timeout)
	return judge(verdictPath, tracePath, r, steps, opt)
}

// BubbleNote says why the outcome of a replay inside a testing/synctest
// bubble (Verdict.Bubble) is no evidence.
const BubbleNote = "the replay ran inside a testing/synctest bubble, whose fake clock and deadlock detection know nothing of the replay's holds and let-gos, so how the test ended is no evidence"

// BubbleBlockedNote says why a blocking bug's replay inside a bubble
// proves nothing (check's Effect).
const BubbleBlockedNote = "the replay ran inside a testing/synctest bubble, whose fake clock and deadlock detection know nothing of the replay's holds and let-gos, so the goroutines blocked at its end are no evidence"

// judge gives the verdict of a replay whose process ran as r, from the
// verdict file the runtime wrote and how the test ended.
func judge(verdictPath, tracePath string, r testbin.Run, steps int, opt Options) Verdict {
	v := Verdict{Steps: steps}
	if !r.Passed && !r.TimedOut && opt.Excuses(r.Output) {
		r.Passed = true
	}
	v.Passed, v.Output, v.Trace, v.Wall = r.Passed, r.Output, tracePath, r.Wall
	if data, err := os.ReadFile(verdictPath); err == nil {
		if err := json.Unmarshal(data, &v); err != nil {
			v.Verdict, v.Message = Ended, "unreadable verdict: "+err.Error()
		}
	}
	v.Steps = steps
	// Where the run was cut short without a verdict of the test's own:
	// the time bound, or the runtime's bound on the free run.
	notEnded := fmt.Sprintf("within %v", opt.Timeout)
	if v.FreeStop != "" && !r.Passed && !r.TimedOut {
		r.TimedOut = true
		notEnded = "(" + v.FreeStop + ")"
	}
	switch {
	case v.Verdict != "":
	case r.TimedOut:
		v.Verdict = Timeout
		v.Message = fmt.Sprintf("no verdict within %v", opt.Timeout)
	default:
		v.Verdict = Ended
		v.Message = "the test process ended before the schedule did"
	}
	if v.Verdict == explored {
		v.Explored = true
		if r.TimedOut {
			// The free run did not end in time: no outcome.
			v.Verdict = Diverged
			v.Message += "; the free run did not end " + notEnded
		}
	}
	if r.TimedOut && v.Verdict != Reproduced && !v.Explored {
		v.Verdict = Timeout
	}
	v.Panicked, v.Consequence = opt.Consequence(r.Output, r.Passed)
	if v.Panicked {
		v.PanicAt = PanicFrame(r.Output)
	}
	if opt.MarkEnd && !v.Panicked {
		v.Scheduled = opt.scheduled(r.Output)
	}
	if r.TimedOut && !v.Panicked && v.Hang == "" && v.Consequence == "test fails" {
		// Bare "test fails": the kill, not an assertion. (ants'
		// TestPoolTuneScaleUp was reported failing so, its output ending
		// at "=== RUN" after the 30s bound.)
		v.Unended = true
		v.Consequence = "the test did not end " + notEnded
	}
	if v.Verdict == Deadlock && len(v.Deadlocked) > 0 && !v.Outside {
		// (rt sets Deadlocked only with the proof: two goroutines of an
		// inversion, or a lost signal's waiter.)
		// The runtime ended the process at the deadlock (rt: a verdict
		// other than reproduced ends a replay): that is the test's fate.
		v.Verdict = Reproduced
		v.Passed, v.Panicked = false, false
		v.Consequence = "the replay deadlocks: " + strings.Join(v.Deadlocked, "; ")
		return v
	}
	if v.Verdict == Reproduced && len(v.Leaked) > 0 && v.Passed && !v.Panicked {
		v.Consequence = "the test returns with a goroutine blocked forever: " + strings.Join(v.Leaked, "; ")
		return v
	}
	ownFailure := opt.Baseline != "" && v.Consequence == opt.Baseline && v.Panicked == opt.BaselinePanicked ||
		opt.FailsPlain && !r.Passed && (!v.Panicked || opt.BaselinePanicked)
	if ownFailure {
		v.Consequence += " (as without pecanvet's help)"
		v.AsBaseline = true
	}
	if v.Hang != "" && !v.Panicked {
		v.Consequence = "the test hangs: " + v.Hang
	}
	if v.Verdict == running {
		// The process ended without a verdict after the last progress
		// mark. If only one goroutine's part of the anomaly was still to
		// come and the program panicked, that is an interrupted anomaly.
		if v.Goroutine != "" && v.Panicked {
			v.Verdict = interrupted
		} else {
			v.Verdict = Ended
			v.Message = "the test process ended before the schedule did (" + v.Message + ")"
		}
	}
	// A failure proves an explored or interrupted anomaly only if the
	// schedule's help made it: not the recorded run's own, nor one inside
	// a bubble, whose clock the replay may have moved.
	failProves := !ownFailure && !v.Bubble
	if v.Bubble && (v.Verdict == explored || v.Verdict == interrupted) && (v.Panicked || !v.Passed) {
		v.Message += "; " + BubbleNote
	}
	if v.Verdict == explored {
		// A failure or panic after the free run is the changed read's
		// effect when the recorded run did not show it; a hang is not
		// (nothing controlled the free run: it may hang for the order it
		// happened to take).
		if (v.Panicked || !v.Passed) && failProves && v.Hang == "" {
			v.Verdict = Reproduced
		} else {
			v.Verdict = Diverged
		}
	}
	if v.Verdict == interrupted {
		v.Interrupted = true
		// The other goroutines' part of the anomaly ran inside the unit of
		// one goroutine, which then took another path: proved only if the
		// program then failed.
		if (v.Panicked || !v.Passed) && failProves {
			v.Verdict = Reproduced
		} else {
			v.Verdict = Diverged
		}
	}
	return v
}

// PanicFrame returns where the first panic of a test's output was raised:
// the innermost frame of the panicking goroutine's stack (the first
// "goroutine N [running]:" after the panic line) whose file is absolute
// and outside the Go root (runtime, sync, testing) and pecanvet's
// instrumentation (its runtime's frames have relative paths), as
// "/path/file.go:LINE"; "" if there is none.
func PanicFrame(out string) string {
	m := panicLine.FindStringIndex(out)
	if m == nil {
		return ""
	}
	rest := out[m[0]:]
	k := runningLine.FindStringIndex(rest)
	if k == nil {
		return ""
	}
	goroot := filepath.ToSlash(build.Default.GOROOT)
	for l := range strings.SplitSeq(rest[k[1]:], "\n") {
		if strings.TrimSpace(l) == "" {
			break // the end of the goroutine's stack
		}
		if !strings.HasPrefix(l, "\t") {
			continue // a function line
		}
		f := strings.Fields(l)[0]
		if !strings.HasPrefix(f, "/") || strings.Contains(f, "pecanvet-instr-") ||
			goroot != "" && strings.HasPrefix(f, goroot+"/") || strings.Contains(f, "/src/runtime/") || strings.Contains(f, "/src/testing/") {
			continue
		}
		return f
	}
	return ""
}

var (
	runningLine = regexp.MustCompile(`(?m)^goroutine \d+ \[running\]:\n`)
	panicLine   = regexp.MustCompile(`(?m)^panic: (.*)$`)
	// failLine is a "file.go:12: message" line; testify's has no message
	// on it (failmsg.go).
	failLine = regexp.MustCompile(`^\s+(\S+\.go:\d+):(?: (.*))?$`)
	// headLine and testEnd are go test -v's status lines: the test that
	// the lines after a header belong to (chatty output names the test
	// again, "=== NAME", whenever another one prints), and how a test
	// ended ("    --- SKIP: TestX/sub (0.30s)", indented for subtests).
	headLine = regexp.MustCompile(`^=== (?:RUN|CONT|NAME|PAUSE) +(\S+)`)
	testEnd  = regexp.MustCompile(`^\s*--- (PASS|FAIL|SKIP): (\S+) \(`)
	// skipCall is a line of source that calls t.Skip or t.Skipf;
	// failCall one that fails the test (a line with both is a failure).
	skipCall = regexp.MustCompile(`\.Skipf?\(`)
	failCall = regexp.MustCompile(`\.(?:Errorf?|Fatalf?|Fail|FailNow)\(`)
	// numeral is what two runs of the same log line may differ in: a
	// random port, a pointer, a duration.
	numeral = regexp.MustCompile(`0[xX][0-9a-fA-F]+|\d+`)
)

// testLine is a "file.go:12: message" line of a test's output, and the
// test that printed it ("" when the output does not say: its head was cut).
type testLine struct {
	test, place, msg string
}

// testLines returns out's "file.go:12: message" lines with the test
// each belongs to, and how each test ended ("PASS", "SKIP", "FAIL"; none
// for a test still running when the process ended).
func testLines(out string) ([]testLine, map[string]string) {
	var lines []testLine
	ended := map[string]string{}
	cur := ""
	// The last "file.go:12:" line's indentation, its message's first line
	// and its further lines (failMessage), while they last.
	indent, first, more := "", "", []string(nil)
	flush := func() {
		if len(lines) > 0 && more != nil {
			lines[len(lines)-1].msg = failMessage(first, more)
		}
		indent, more = "", nil
	}
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimRight(l, "\r")
		if indent != "" {
			// go test indents a message's further lines 4 spaces
			// deeper than its first.
			if rest, ok := strings.CutPrefix(l, indent+"    "); ok && !failLine.MatchString(l) {
				more = append(more, rest)
				continue
			}
			flush()
		}
		if m := headLine.FindStringSubmatch(l); m != nil {
			cur = m[1]
		} else if m := testEnd.FindStringSubmatch(l); m != nil {
			// Output a test kept back (a test's log in non-chatty mode,
			// a subtest's flushed to its parent) follows its end line.
			cur = m[2]
			ended[cur] = m[1]
		} else if m := failLine.FindStringSubmatch(l); m != nil {
			lines = append(lines, testLine{test: cur, place: m[1], msg: strings.TrimSpace(m[2])})
			indent, first, more = l[:len(l)-len(strings.TrimLeft(l, " \t"))], m[2], []string{}
		}
	}
	flush()
	return lines, ended
}

// skipAt reports whether the line at place ("x_test.go:12") of a
// source file in dir calls t.Skip: its message is a skip's reason. A
// subtest's "--- SKIP" line reaches the output only when its parent ends
// (the parent keeps it until then), so a process that ended first (the
// replay's bound, or the replay ending it) shows the reason alone, just
// as it would a t.Error's. files caches the files read.
func skipAt(dir, place string, files map[string][]string) bool {
	if dir == "" {
		return false
	}
	i := strings.LastIndexByte(place, ':')
	n, err := strconv.Atoi(place[i+1:])
	if i < 0 || err != nil {
		return false
	}
	name := place[:i]
	lines, ok := files[name]
	if !ok {
		if data, err := os.ReadFile(filepath.Join(dir, filepath.Base(name))); err == nil {
			lines = strings.Split(string(data), "\n")
		}
		files[name] = lines
	}
	return n >= 1 && n <= len(lines) && skipCall.MatchString(lines[n-1]) && !failCall.MatchString(lines[n-1])
}

// logKey is line l with its numbers masked: the same log line of two
// runs has the same key.
func logKey(l testLine) string {
	return l.place + ": " + numeral.ReplaceAllString(l.msg, "#")
}

// LogLines returns the log lines of a test's recorded output, out, for
// Options.Logged: those of the tests that passed or skipped, or all of
// them if the run passed (a passing test's "file.go:12:" lines are
// t.Log's, not failures).
func LogLines(out string, passed bool) []string {
	lines, ended := testLines(out)
	var keys []string
	for _, l := range lines {
		if passed || ended[l.test] == "PASS" || ended[l.test] == "SKIP" {
			keys = append(keys, logKey(l))
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// scheduleEndMark is the line dynamic/rt prints when the schedule's last
// step has run (rt.ScheduleEndMark, with PECANVET_MARK_END).
const scheduleEndMark = "pecanvet: the schedule ended"

// scheduled is what failed in out before the schedule's end mark: the
// failed assertions among its lines before it, by the tests' ends in all
// of out (a test that went on to pass only logged them); "" without a
// mark, or without such lines.
func (o Options) scheduled(out string) string {
	i := strings.Index(out, "\n"+scheduleEndMark+"\n")
	if i < 0 && strings.HasPrefix(out, scheduleEndMark+"\n") {
		i = 0
	}
	if i < 0 {
		return ""
	}
	_, ended := testLines(out)
	lines, _ := testLines(out[:i+1])
	fails := o.failed(lines, ended)
	if len(fails) == 0 {
		return ""
	}
	return "test fails: " + strings.Join(fails, "; ")
}

// Excuses reports whether out, a failing test's output, says that the
// failure is none of the code's under test (Options.Excused) and shows no
// panic.
func (o Options) Excuses(out string) bool {
	return o.Excused != "" && strings.Contains(out, o.Excused) && !panicLine.MatchString(out)
}

// Consequence extracts what went wrong from a test's output: whether it
// panicked, and the panic message or the failed assertions ("" if it
// passed).
func Consequence(out string, passed bool) (panicked bool, msg string) {
	return consequence(out, passed, nil, "")
}

// Consequence is what went wrong in out, a test's output, as a replay
// under o states it: consequence with o.Logged.
func (o Options) Consequence(out string, passed bool) (panicked bool, msg string) {
	return consequence(out, passed, o.Logged, o.Src)
}

// consequence extracts what went wrong from a test's output: the panic
// message, or the failed assertions. These are the "file.go:12: message"
// lines of the tests that did not pass: a skipped test's reason (otter's
// "a write shared the bucket of an invalidated key", a t.Skip once its
// 300 ms wait ran out) and a passing test's t.Log lines are no failure.
// Nor is a line the recorded run printed too (logged, sorted: LogLines),
// numbers aside: a failing test's t.Log ("session_test.go:143:
// Connecting to tcp: [::]:40137", a random port) would make two runs
// that fail alike differ (check's sameFailure compares the failures,
// numbers included, so that a failure at the same place with another
// value still counts as another failure). src is the test's package
// directory (skipAt), or "".
func consequence(out string, passed bool, logged []string, src string) (panicked bool, msg string) {
	if m := panicLine.FindStringSubmatch(out); m != nil {
		msg = strings.TrimSpace(m[1])
		// The location of the panic: the first frame in a user file.
		lines := strings.Split(out[strings.Index(out, m[0]):], "\n")
		for i, l := range lines {
			l = strings.TrimSpace(l)
			if strings.HasPrefix(l, "/") && strings.Contains(l, ".go:") && !strings.Contains(l, "/src/runtime/") &&
				!strings.Contains(l, "/src/testing/") && !strings.Contains(l, "pecanvet-instr-") && i > 0 {
				msg += " at " + filepath.Base(strings.Fields(l)[0])
				break
			}
		}
		return true, "panic: " + msg
	}
	if passed {
		return false, ""
	}
	lines, ended := testLines(out)
	fails := Options{Logged: logged, Src: src}.failed(lines, ended)
	if len(fails) > 0 {
		return false, "test fails: " + strings.Join(fails, "; ")
	}
	return false, "test fails"
}

// failed is the failed assertions among lines, up to 5: those of tests
// that did not pass or skip (ended), less t.Skip reasons and the lines
// the recorded run printed too (o.Logged, o.Src: consequence).
func (o Options) failed(lines []testLine, ended map[string]string) []string {
	var fails []string
	files := map[string][]string{}
	for _, l := range lines {
		if ended[l.test] == "PASS" || ended[l.test] == "SKIP" || skipAt(o.Src, l.place, files) {
			continue
		}
		if _, ok := slices.BinarySearch(o.Logged, logKey(l)); ok {
			continue
		}
		if fails = append(fails, strings.TrimSpace(l.place+": "+l.msg)); len(fails) == 5 {
			break
		}
	}
	return fails
}
