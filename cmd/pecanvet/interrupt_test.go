package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fakeExit replaces exitNow for a test and returns the codes it got.
func fakeExit(t *testing.T) <-chan int {
	codes := make(chan int, 1)
	old := exitNow
	exitNow = func(code int) { codes <- code }
	t.Cleanup(func() { exitNow = old })
	return codes
}

func TestInterruptSecondSignalEnds(t *testing.T) {
	codes := fakeExit(t)
	sigs := make(chan os.Signal, 2)
	var out syncBuffer
	ctx, stop := watchInterrupt("pecanvet check", &out, time.Hour, sigs)
	defer stop()
	sigs <- syscall.SIGTERM
	<-ctx.Done()
	select {
	case c := <-codes:
		t.Fatalf("exited (%d) at the first signal", c)
	case <-time.After(50 * time.Millisecond):
	}
	sigs <- os.Interrupt
	select {
	case c := <-codes:
		if c != 2 {
			t.Errorf("exit status %d, want 2", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a second signal did not end the process")
	}
	if s := out.String(); !strings.Contains(s, "terminated: stopping") || !strings.Contains(s, "again: ending now") {
		t.Errorf("messages:\n%s", s)
	}
}

func TestInterruptGraceEnds(t *testing.T) {
	codes := fakeExit(t)
	sigs := make(chan os.Signal, 2)
	var out syncBuffer
	_, stop := watchInterrupt("pecanvet check", &out, 20*time.Millisecond, sigs)
	defer stop()
	sigs <- syscall.SIGTERM
	select {
	case c := <-codes:
		if c != 2 {
			t.Errorf("exit status %d, want 2", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("work that did not stop within the grace did not end the process")
	}
	if !strings.Contains(out.String(), "did not stop within 20ms") {
		t.Errorf("messages:\n%s", out.String())
	}
}

func TestInterruptStoppedWorkStays(t *testing.T) {
	codes := fakeExit(t)
	sigs := make(chan os.Signal, 2)
	var out syncBuffer
	ctx, stop := watchInterrupt("pecanvet check", &out, 20*time.Millisecond, sigs)
	sigs <- syscall.SIGTERM
	<-ctx.Done()
	stop() // the work returned in time
	select {
	case c := <-codes:
		t.Fatalf("exited (%d) after the work returned", c)
	case <-time.After(200 * time.Millisecond):
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestCheckInterrupted sends SIGTERM to a pecanvet check whose test never
// ends: it must stop soon, with status 2 and no report, and leave neither
// a test process nor a temporary directory behind.
func TestCheckInterrupted(t *testing.T) {
	bin := buildTool(t)
	mod := hangModule(t)
	tmp := t.TempDir()
	cmd := exec.Command(bin, "check", "-timeout", "10m", ".")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var stdout, stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, cmd, &stderr, "TestHang: recording")
	cmd.Process.Signal(syscall.SIGTERM)
	err := waitEnd(t, cmd, &stderr)
	if code := cmd.ProcessState.ExitCode(); code != 2 {
		t.Errorf("exit status %d (%v), want 2", code, err)
	}
	if !strings.Contains(stderr.String(), "did not finish, so nothing is reported") {
		t.Errorf("stderr does not say the check did not finish:\n%s", stderr.String())
	}
	if stdout.String() != "" {
		t.Errorf("an interrupted check printed a report:\n%s", stdout.String())
	}
	noLeftovers(t, tmp)
}

// TestGoVetInterrupted is TestCheckInterrupted under go vet, interrupted
// as a terminal's ^C does: SIGINT to the whole process group, the go
// command included, which exits at once and closes the tool's pipes.
func TestGoVetInterrupted(t *testing.T) {
	bin := buildTool(t)
	mod := hangModule(t)
	tmp := t.TempDir()
	cmd := exec.Command("go", "vet", "-vettool="+bin, "./...")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// go vet shows the tool's output only at its end: wait for the
	// test process instead.
	deadline := time.Now().Add(3 * time.Minute)
	for len(procsUnder(tmp, ".test")) == 0 {
		if time.Now().After(deadline) {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			t.Fatalf("the test process did not start:\n%s", out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(time.Second)
	syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	waitEnd(t, cmd, &out)
	// The tool outlives the go command by the time it takes to stop.
	deadline = time.Now().Add(interruptGrace + 10*time.Second)
	for len(procsUnder(tmp, "")) > 0 || len(procsNamed(bin)) > 0 {
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	noLeftovers(t, tmp)
	if ps := procsNamed(bin); len(ps) > 0 {
		t.Errorf("pecanvet still runs: %v", ps)
	}
}

// hangModule writes a module whose one test never ends.
func hangModule(t *testing.T) string {
	mod := t.TempDir()
	os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module hang\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(mod, "hang_test.go"), []byte(`package hang

import (
	"sync"
	"testing"
	"time"
)

func TestHang(t *testing.T) {
	var mu sync.Mutex
	n := 0
	for {
		mu.Lock()
		n++
		mu.Unlock()
		time.Sleep(time.Millisecond)
	}
}
`), 0o644)
	return mod
}

// waitFor waits until cmd's output holds s.
func waitFor(t *testing.T, cmd *exec.Cmd, out *syncBuffer, s string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for !strings.Contains(out.String(), s) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no %q within 3m:\n%s", s, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(time.Second)
}

// waitEnd waits for cmd, interrupted, to end in time.
func waitEnd(t *testing.T, cmd *exec.Cmd, out *syncBuffer) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(interruptGrace + 20*time.Second):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Process.Kill()
		t.Fatalf("still running %v after the interrupt:\n%s", interruptGrace+20*time.Second, out.String())
		return nil
	}
}

// procsUnder lists the command lines of the processes whose command
// line names a path under dir and holds s.
func procsUnder(dir, s string) []string {
	var ps []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, _ := os.ReadFile(p)
		if c := strings.ReplaceAll(string(b), "\x00", " "); strings.Contains(c, dir+"/") && strings.Contains(c, s) {
			ps = append(ps, c)
		}
	}
	return ps
}

// procsNamed lists the command lines of the processes running bin.
func procsNamed(bin string) []string {
	var ps []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, _ := os.ReadFile(p)
		if c := strings.ReplaceAll(string(b), "\x00", " "); strings.HasPrefix(c, bin+" ") {
			ps = append(ps, c)
		}
	}
	return ps
}

// noLeftovers fails t if a process of the check still runs from tmp, or
// a pecanvet directory is left in it. The test processes run in their own
// process groups, out of reach of a signal to pecanvet's: pecanvet must
// have killed them.
func noLeftovers(t *testing.T, tmp string) {
	t.Helper()
	time.Sleep(500 * time.Millisecond)
	for _, c := range procsUnder(tmp, "") {
		t.Errorf("a process of the check still runs: %s", c)
	}
	ents, _ := os.ReadDir(tmp)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "pecanvet-") {
			t.Errorf("temporary directory %s left behind", e.Name())
		}
	}
}
