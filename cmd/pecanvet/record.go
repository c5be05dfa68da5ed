package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/pecanvet/pecanvet/dynamic/record"
)

const recordUsage = `usage: pecanvet record [-run REGEXP] [-o DIR] [-timeout D] [packages]

Build each package's tests instrumented (through -overlay: your files are
not touched), run each selected test in its own process with the recorder
on, and write one trace per test under DIR/<package>/<Test>.trace. For each
test it prints the events, goroutines and shared locations recorded, and the
wall time against the uninstrumented test.

Flags:
`

func cmdRecord(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	fs.SetOutput(stderr)
	run := fs.String("run", "", "record only the tests matching this regexp (as go test -run)")
	out := fs.String("o", "pecanvet-traces", "directory for the traces")
	timeout := fs.Duration("timeout", record.DefaultTimeout, "time bound per test; a test still running is killed, its trace kept and marked truncated")
	plain := fs.Bool("plain", true, "also run each test uninstrumented, to compare wall time")
	fs.Usage = func() {
		fmt.Fprint(stderr, recordUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "pecanvet record: %v\n", err)
		return 2
	}
	pats := fs.Args()
	if len(pats) == 0 {
		pats = []string{"."}
	}
	// An interrupt stops the work (and the test processes) and still
	// removes the temporary files (onInterrupt).
	ctx, stop := onInterrupt("pecanvet record", stderr, interruptGrace)
	defer stop()
	tests, notes, err := record.Record(ctx, record.Options{
		Dir: dir, Patterns: pats, Run: *run, OutDir: *out, Timeout: *timeout, Plain: *plain, Progress: stderr,
	})
	for _, n := range notes {
		fmt.Fprintf(stderr, "pecanvet record: note: %s\n", n)
	}
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "pecanvet record: %v: the recording did not finish\n", context.Cause(ctx))
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "pecanvet record: %v\n", err)
		return 2
	}
	if len(tests) == 0 {
		fmt.Fprintln(stderr, "pecanvet record: no tests to record")
		return 1
	}
	failed := 0
	for _, t := range tests {
		status := "ok  "
		if !t.Passed {
			status = "FAIL"
			failed++
		}
		timing := fmt.Sprintf("%.2fs", t.Wall.Seconds())
		if t.PlainWall > 0 {
			timing += fmt.Sprintf(" (plain %.2fs, %.1fx)", t.PlainWall.Seconds(), t.Wall.Seconds()/t.PlainWall.Seconds())
		}
		fmt.Fprintf(stdout, "%s %s %s: %d events, %d goroutines, %d shared locations, %s → %s\n",
			status, t.Package, t.Name, t.Events, t.Goroutines, t.Shared, timing, t.Trace)
		if t.Truncated != "" {
			fmt.Fprintf(stdout, "     trace truncated: %s\n", t.Truncated)
		}
	}
	if failed > 0 {
		fmt.Fprintf(stdout, "%d of %d tests failed while recording (their traces are kept)\n", failed, len(tests))
		return 1
	}
	return 0
}
