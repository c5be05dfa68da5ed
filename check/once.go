package check

import (
	"context"
	"runtime"
	"strings"
	"sync"
)

// RunOnce is Run, once per process for each Dir and Patterns: a later call
// with the same ones returns the first call's report and error, whatever
// its other options. Drivers that analyze a package both with and without
// its tests (as analysistest does) share the result.
//
// At most GOMAXPROCS checks run at once in a process, as go vet bounds
// its vet tool processes: a driver that analyzes many packages in one
// process (golangci-lint, analysistest) otherwise started them all
// together, each with its builds, recordings and replays, and their
// wall-clock bounds (a trace's share of the budget, a replay's stall
// bound) were spent waiting for the CPU, so that findings came and went.
func RunOnce(ctx context.Context, opt Options) (*Report, error) {
	v, _ := onces.LoadOrStore(onceKey(opt.Dir, opt.Patterns), &once{})
	c := v.(*once)
	c.once.Do(func() {
		slots <- struct{}{}
		defer func() { <-slots }()
		c.rep, c.err = runOnce(ctx, opt)
	})
	return c.rep, c.err
}

// Forget makes the next RunOnce for dir and patterns check again instead
// of returning the remembered result. A harness that runs the analyzer
// again in the same process, to tell a subject's flake from its failure
// (passes/pecan's TestSubjects), needs a new check: without Forget its
// second and third runs returned the first run's report, and a finding
// lost once under load (stopflag's server.go:25 in sessions 32-34's CI)
// was lost all three times.
func Forget(dir string, patterns []string) {
	onces.Delete(onceKey(dir, patterns))
}

func onceKey(dir string, patterns []string) string {
	return dir + "\x00" + strings.Join(patterns, "\x00")
}

type once struct {
	once sync.Once
	rep  *Report
	err  error
}

var (
	onces sync.Map // directory and patterns → *once
	slots = make(chan struct{}, runtime.GOMAXPROCS(0))
	// runOnce is Run (a variable for tests).
	runOnce = Run
)
