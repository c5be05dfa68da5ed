package replay

import (
	"bufio"
	"context"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
)

// Replaying many schedules in one process.
//
// A replay of a small test takes a few milliseconds; starting its process
// (the binary's pages, the runtime, the package's initialization) takes
// 20 ms of CPU, most of it in the kernel. On Go's race testdata, 290
// replays of that kind were half of the check's CPU time. RunBatch runs
// several replays in one process instead: the runtime replays each
// listed test run's schedule from the test's start (dynamic/rt,
// EnvReplayList), the tests running in the binary's order, a test listed
// k times run k times (-test.count).
//
// A run after the first sees what the earlier ones left in the package's
// variables, as the recording did: the tests were recorded in one process
// too (record.Recorder.RecordBatch). Goroutines a replay leaves running
// could act during the next one, so the runtime runs no more after such a
// replay; nor after one that failed (its process exits, as a replay's
// does) or whose anomaly was interrupted (how the program ends decides
// it). What did not run is for the caller to replay again.

// Entry is one replay of a batch: test under the schedule in file Sched
// (of Steps steps), with Dir its scratch directory.
type Entry struct {
	Test  string
	Sched string
	Steps int
	Dir   string
	Opt   Options
}

// envReplayList is dynamic/rt's EnvReplayList.
const envReplayList = "PECANVET_REPLAY_LIST"

var (
	runLine = regexp.MustCompile(`^=== RUN   (\S+)$`)
	endLine = regexp.MustCompile(`^--- (PASS|FAIL|SKIP): (\S+) \(`)
)

// RunBatch replays entries, whose tests all start their recording with
// the test (testbin.Build.TestEnv), in one process of pkg's test binary.
// It returns each entry's verdict, and whether it ran: one that did not
// (the process stopped before it) has no verdict. The stall bound is the
// first entry's; each entry's timeout bounds its own run. When ctx ends,
// the process is killed and the entry it was running did not run.
func RunBatch(ctx context.Context, b *testbin.Build, pkg string, entries []Entry) (vs []Verdict, ran []bool) {
	vs, ran = make([]Verdict, len(entries)), make([]bool, len(entries))
	if len(entries) == 0 || ctx.Err() != nil {
		// An ended ctx starts nothing: started, the process ran an entry
		// or two before the kill in 5 of 100 batches at load 50.
		return
	}
	byTest := map[string][]int{}
	var list strings.Builder
	count := 0
	for i := range entries {
		e := &entries[i]
		if e.Opt.Timeout <= 0 {
			e.Opt.Timeout = DefaultTimeout
		}
		if e.Opt.Src == "" && b != nil {
			e.Opt.Src = b.Dirs[pkg]
		}
		if e.Opt.Stall <= 0 {
			e.Opt.Stall = DefaultStall
		}
		if err := os.MkdirAll(e.Dir, 0o755); err != nil {
			return
		}
		os.Remove(filepath.Join(e.Dir, "verdict.json"))
		byTest[e.Test] = append(byTest[e.Test], i)
		count = max(count, len(byTest[e.Test]))
		list.WriteString(e.Test + "\t" + e.Sched + "\t" + filepath.Join(e.Dir, "verdict.json") + "\t" + filepath.Join(e.Dir, "replay.trace"))
		if e.Opt.Explore {
			list.WriteString("\texplore")
		}
		if !e.Opt.Clock.IsZero() {
			list.WriteString("\tclock=" + strconv.FormatInt(e.Opt.Clock.UnixNano(), 10))
		}
		list.WriteString("\n")
	}
	listPath := filepath.Join(entries[0].Dir, "replay.list")
	if err := os.WriteFile(listPath, []byte(list.String()), 0o644); err != nil {
		return
	}
	var quoted []string
	for t := range byTest {
		quoted = append(quoted, regexp.QuoteMeta(t))
	}
	cmd := exec.Command(b.Binaries[pkg], append([]string{"-test.run", "^(" + strings.Join(quoted, "|") + ")$",
		"-test.count=" + strconv.Itoa(count), "-test.v", "-test.timeout=0"}, testbin.Flags(b.Dirs[pkg])...)...)
	tests := slices.Sorted(maps.Keys(byTest))
	wd, tmp, alone, rmTmp := testbin.PrivateFor(b.Dirs[pkg], tests)
	defer rmTmp()
	cmd.Dir = wd
	cmd.Env = append(os.Environ(), envReplayList+"="+listPath,
		"PECANVET_STALL_MS="+strconv.FormatInt(entries[0].Opt.Stall.Milliseconds(), 10), tmp)
	cmd.Env = append(cmd.Env, b.ReplayEnv(pkg)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		pw.Close()
		return
	}

	type run struct {
		start    time.Time
		wall     time.Duration
		result   string
		timedOut bool
		out      strings.Builder
	}
	var (
		smu  sync.Mutex
		runs = make([]*run, len(entries))
		seen = map[string]int{} // runs of each test so far
		cur  = -1               // the entry running
		// killed: ctx ended the process; the entry it cut short has no
		// verdict (a killed test is no failing one).
		killed bool
	)
	stop := make(chan struct{})
	go func() {
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				smu.Lock()
				killed = true
				smu.Unlock()
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				return
			case <-t.C:
				smu.Lock()
				if cur >= 0 && runs[cur].result == "" && time.Since(runs[cur].start) > entries[cur].Opt.Timeout {
					runs[cur].timedOut = true
					syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				}
				smu.Unlock()
			}
		}
	}()
	waited := make(chan struct{})
	go func() {
		cmd.Wait()
		pw.Close()
		close(waited)
	}()
	const maxOut = 1 << 20 // per run
	rd := bufio.NewReaderSize(pr, 64<<10)
	for {
		line, err := rd.ReadString('\n')
		l := strings.TrimRight(line, "\r\n")
		smu.Lock()
		if m := runLine.FindStringSubmatch(l); m != nil && !strings.Contains(m[1], "/") {
			now := time.Now()
			if cur >= 0 && runs[cur].wall == 0 {
				runs[cur].wall = now.Sub(runs[cur].start)
			}
			cur = -1
			k := seen[m[1]]
			seen[m[1]]++
			if idx := byTest[m[1]]; k < len(idx) {
				cur = idx[k]
				runs[cur] = &run{start: now}
			}
		}
		if cur >= 0 && line != "" && runs[cur].out.Len() < maxOut {
			runs[cur].out.WriteString(line)
		}
		if m := endLine.FindStringSubmatch(l); m != nil && cur >= 0 && m[2] == entries[cur].Test && runs[cur].result == "" {
			runs[cur].result = m[1]
		}
		smu.Unlock()
		if err != nil {
			break
		}
	}
	<-waited
	close(stop)
	end := time.Now()
	for i, r := range runs {
		if r == nil {
			continue
		}
		verdictPath := filepath.Join(entries[i].Dir, "verdict.json")
		if _, err := os.Stat(verdictPath); err != nil && !r.timedOut {
			continue // skipped: the process took no more
		}
		if killed && r.result == "" && !r.timedOut {
			continue // cut short by ctx: not run
		}
		if r.wall == 0 {
			r.wall = end.Sub(r.start)
		}
		rr := testbin.Run{Wall: r.wall, Passed: passed(r.result), TimedOut: r.timedOut, Output: r.out.String()}
		if !alone && !rr.Passed && testbin.Collided(rr.Output) {
			// It failed binding a port that another process of the
			// package held: no verdict of the schedule's. Its test
			// runs alone from now on; the caller runs this entry
			// again, as one the process did not get to.
			testbin.SetAlone(b.Dirs[pkg], entries[i].Test, true)
			continue
		}
		vs[i] = judge(verdictPath, filepath.Join(entries[i].Dir, "replay.trace"), rr, entries[i].Steps, entries[i].Opt)
		ran[i] = true
	}
	return vs, ran
}

// passed says whether a test's end line ("--- PASS", "--- SKIP", "---
// FAIL") is a run that did not fail. A skip is not a failure, as when the
// test runs alone (testbin.Run: its process exits 0) and when it is
// recorded: a generated driver whose sequential calls the replay's
// schedule slowed past its wait skips, and that skip was reported as the
// anomaly's effect ("test fails: pecanvet driver: calling Go and
// SetLimit one after the other does not return", on x/sync's errgroup).
func passed(result string) bool { return result == "PASS" || result == "SKIP" }
