package main

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMain doubles as a helper process: with EVAL_TEST_ALLOC_MB set, the
// test binary touches that many MiB, holds them a while and exits.
func TestMain(m *testing.M) {
	if s := os.Getenv("EVAL_TEST_ALLOC_MB"); s != "" {
		n, _ := strconv.Atoi(s)
		b := make([]byte, n<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		time.Sleep(600 * time.Millisecond)
		if b[len(b)-4096] != 1 {
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestMeasureGrandchildRSS: the peak RSS counts a grandchild's memory (the
// shell forks the allocating process and waits for it), both in wait4's
// rusage and in the sampled tree, and not the shell's few megabytes alone.
func TestMeasureGrandchildRSS(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r := measure(context.Background(), time.Minute, t.TempDir(), []string{"EVAL_TEST_ALLOC_MB=200"}, "sh", "-c", `"$0"; true`, exe)
	if r.describe() != "ok" {
		t.Fatalf("helper: %s: %s", r.describe(), r.Stderr)
	}
	if r.MaxRSS < 190<<20 {
		t.Errorf("MaxRSS = %s, want at least the grandchild's 200 MiB", mib(r.MaxRSS))
	}
	if r.CPU <= 0 {
		t.Errorf("CPU = %v, want the helper's time", r.CPU)
	}
	if r.TreeRSS < 150<<20 {
		t.Errorf("TreeRSS = %s (peak %q), want about 200 MiB", mib(r.TreeRSS), r.PeakProc)
	}
}

// TestMeasureTimeout: at the bound the whole process group is killed, a
// background grandchild included, and the run says it timed out.
func TestMeasureTimeout(t *testing.T) {
	start := time.Now()
	r := measure(context.Background(), 300*time.Millisecond, t.TempDir(), nil, "sh", "-c", "sleep 30 & sleep 30; wait")
	if !r.TimedOut || r.describe() != "timed out" {
		t.Errorf("run = %+v, want timed out", r)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v after a 300ms bound", d)
	}
}

// TestMeasureTimeoutOwnGroup: a descendant that left the process group
// (as the vet tool's test binaries do) is killed at the bound too.
func TestMeasureTimeoutOwnGroup(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	r := measure(context.Background(), 500*time.Millisecond, t.TempDir(), nil, "sh", "-c", "setsid sleep 31 & echo $!; wait")
	if !r.TimedOut {
		t.Fatalf("run = %+v, want timed out", r)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(r.Stdout)))
	if err != nil {
		t.Fatalf("pid %q: %v", r.Stdout, err)
	}
	for i := 0; ; i++ {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return // gone
		}
		if strings.Contains(string(b), ") Z ") {
			return // killed, not yet reaped by init
		}
		if i == 50 {
			t.Fatalf("process %d in its own group still running after the bound: %s", pid, b)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestParseStat(t *testing.T) {
	line := "4242 (go (vet) x) S 17 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 3 0 555 12345678 2048 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0"
	s, ok := parseStat(line)
	if !ok || s.comm != "go (vet) x" || s.ppid != 17 || s.rssPages != 2048 {
		t.Errorf("parseStat = %+v, %v", s, ok)
	}
	if _, ok := parseStat("garbage"); ok {
		t.Error("parsed garbage")
	}
}
