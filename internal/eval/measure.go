package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// run is one measured command: its wall time and the peak resident memory
// of its process tree.
type run struct {
	Wall     time.Duration
	Exit     int  // exit code; -1 if it did not exit normally
	TimedOut bool // killed at the time bound
	Err      error
	Stdout   []byte
	Stderr   []byte

	// MaxRSS is the largest resident set of any single process in the
	// tree, in bytes: the rusage that wait4 returns for the child covers
	// the child and every descendant it (or they) waited for (Linux's
	// RUSAGE_BOTH), so it includes the go command's compilers and the vet
	// tool's test binaries. It is a maximum over processes, not a sum.
	MaxRSS int64
	// TreeRSS is the largest sum of the resident sets of the tree's live
	// processes, sampled from /proc every sampleEvery (so it can miss a
	// short peak), and PeakProc the command holding the most memory at
	// that sample.
	TreeRSS  int64
	PeakProc string
	// CPU is the user and system time of the process and of every
	// descendant it waited for (wait4's rusage, as MaxRSS): on a machine
	// shared with other work, where wall times stretch with the load,
	// what the command itself cost.
	CPU time.Duration
}

const sampleEvery = 100 * time.Millisecond

// measure runs name args in dir with env added to the environment,
// killing its whole process group at timeout.
func measure(ctx context.Context, timeout time.Duration, dir string, env []string, name string, args ...string) *run {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killTree(cmd.Process.Pid) }
	cmd.WaitDelay = 10 * time.Second
	r := &run{Exit: -1}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		r.Err = err
		return r
	}
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(sampleEvery)
		defer t.Stop()
		for {
			if sum, top := treeRSS(cmd.Process.Pid); sum > r.TreeRSS {
				r.TreeRSS, r.PeakProc = sum, top
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	err := cmd.Wait()
	r.Wall = time.Since(start)
	close(done)
	<-sampled
	r.Stdout, r.Stderr = stdout.Bytes(), stderr.Bytes()
	r.TimedOut = ctx.Err() == context.DeadlineExceeded
	if cmd.ProcessState != nil {
		r.Exit = cmd.ProcessState.ExitCode()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.MaxRSS = ru.Maxrss * 1024 // kilobytes on Linux
		}
		r.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if err != nil && r.Exit < 0 {
		r.Err = err
	}
	return r
}

// killTree kills root's process group and every descendant, with its own
// group: the vet tool runs test binaries in process groups of their own,
// which a kill of root's group alone would leave running.
func killTree(root int) error {
	tree := procTree(root)
	err := syscall.Kill(-root, syscall.SIGKILL)
	for pid := range tree {
		syscall.Kill(-pid, syscall.SIGKILL) // fails harmlessly if pid leads no group
		syscall.Kill(pid, syscall.SIGKILL)
	}
	return err
}

// treeRSS sums the resident sets of root and its descendants, read from
// /proc, and names the largest.
func treeRSS(root int) (sum int64, top string) {
	var topRSS int64
	for _, p := range procTree(root) {
		sum += p.rss
		if p.rss > topRSS {
			topRSS, top = p.rss, p.comm
		}
	}
	return sum, top
}

type proc struct {
	ppid int
	rss  int64 // bytes
	comm string
}

// procTree reads root and its live descendants from /proc.
func procTree(root int) map[int]proc {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	procs := map[int]proc{}
	page := int64(os.Getpagesize())
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		p, ok := parseStat(string(b))
		if !ok {
			continue
		}
		procs[pid] = proc{p.ppid, p.rssPages * page, p.comm}
	}
	in := map[int]bool{root: true}
	// Descendants: repeat until no process joins (trees are shallow).
	for changed := true; changed; {
		changed = false
		for pid, p := range procs {
			if !in[pid] && in[p.ppid] {
				in[pid] = true
				changed = true
			}
		}
	}
	out := map[int]proc{}
	for pid := range in {
		if p, ok := procs[pid]; ok {
			out[pid] = p
		}
	}
	return out
}

type stat struct {
	comm     string
	ppid     int
	rssPages int64
}

// parseStat reads the comm, ppid and rss fields of a /proc/PID/stat line.
// The comm field is parenthesized and may itself contain spaces and
// parentheses, so the fields after it are found from the last ')'.
func parseStat(s string) (stat, bool) {
	lp, rp := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if lp < 0 || rp < lp {
		return stat{}, false
	}
	f := strings.Fields(s[rp+1:])
	// f[0] is field 3 (state), so field k is f[k-3]: ppid is 4, rss 24.
	if len(f) < 22 {
		return stat{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	rss, err2 := strconv.ParseInt(f[21], 10, 64)
	if err1 != nil || err2 != nil {
		return stat{}, false
	}
	return stat{comm: s[lp+1 : rp], ppid: ppid, rssPages: rss}, true
}

func mib(b int64) string {
	return fmt.Sprintf("%d MiB", (b+(1<<19))>>20)
}

func secs(d time.Duration) string {
	return fmt.Sprintf("%.1f s", d.Seconds())
}

func ratio(a, b time.Duration) string {
	if b <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1fx", a.Seconds()/b.Seconds())
}

// describe says how a measured run ended, for tables and notes.
func (r *run) describe() string {
	switch {
	case r.TimedOut:
		return "timed out"
	case r.Err != nil:
		return r.Err.Error()
	case r.Exit != 0:
		return fmt.Sprintf("exit %d", r.Exit)
	}
	return "ok"
}

// vetCut is bound if the go vet run r was stopped at its time bound, else
// 0 (packageRows: the packages without a result are then not ones go vet
// never reached).
func vetCut(r *run, bound time.Duration) time.Duration {
	if r != nil && r.TimedOut {
		return bound
	}
	return 0
}
