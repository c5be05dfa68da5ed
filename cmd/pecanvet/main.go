// Command pecanvet finds concurrency bugs that another schedule of a
// package's tests would show, and proves each by replaying it.
//
// The bugs are data races, atomicity and atomic-set-serializability
// violations, and blocking bugs (deadlocks, lost signals, double locks,
// leaked goroutines, WaitGroup.Add after Wait, sends on a closed channel)
// and order violations whose other order panics, that the tests' own run
// did not show.
//
// As a vet tool:
//
//	go vet -vettool=$(go env GOPATH)/bin/pecanvet ./...
//
// Subcommands:
//
//	pecanvet check [-run R] [-json|-sarif] [packages]  record, predict, replay: print what was reproduced
//	pecanvet record [-run R] [-o DIR] [packages]   record one trace per test
//	pecanvet predict [-patterns P] [-json] TRACE   predict anomalies of a recorded trace
//	pecanvet trace [-text|-bin] [-o OUT] TRACE     print or convert a trace
//	pecanvet lsp [-replay=false]                   a language server beside gopls (editors)
//
// Run "pecanvet help" or "pecanvet SUBCOMMAND -h" for details.
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `pecanvet finds concurrency bugs in Go code that one run did not show but
another schedule would: data races, atomicity and atomic-set-
serializability violations, and blocking bugs (lock-order deadlocks, lost
Cond signals, double locks, leaked goroutines, WaitGroup.Add after Wait,
sends on a closed channel), and order violations whose other order
panics. Each is predicted from a recorded run of the
package's tests, proved by replaying the schedule that exposes it, and
reported with that schedule (the bug hatching clip).

As a vet tool (the usual way):

	go vet -vettool=$(go env GOPATH)/bin/pecanvet ./...

  flags: -pecan.patterns P, -pecan.budget D (work per package: what takes D
  on an idle machine, whatever the load), -pecan.replay=false
  (static candidates only, marked unconfirmed), -pecan.maxreplays N, -pecan.v
  (also the interleavings without effect), -json.

Subcommands:

	pecanvet check [-run R] [-json|-sarif] [packages]  record, predict, replay: print what was reproduced
	pecanvet record [-run R] [-o DIR] [packages]   record one trace per test
	pecanvet predict [-patterns P] [-json] TRACE   predict the anomalies of a trace
	pecanvet trace [-text|-bin] [-o OUT] TRACE     print a trace as text, or convert it
	pecanvet lsp [-replay=false]                   a language server beside gopls (editors)

Run "pecanvet SUBCOMMAND -h" for the flags of a subcommand.
`

func main() {
	limitMemory()
	if isVetInvocation(os.Args[1:]) {
		vetMain(os.Args[1:])
		return
	}
	stop := startCPUProfile()
	code := run(os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "predict":
		return cmdPredict(args[1:], stdout, stderr)
	case "trace":
		return cmdTrace(args[1:], stdout, stderr)
	case "record":
		return cmdRecord(args[1:], stdout, stderr)
	case "check":
		return cmdCheck(args[1:], stdout, stderr)
	case "lsp":
		return cmdLSP(args[1:], os.Stdin, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "pecanvet: unknown subcommand %q\n\n%s", args[0], usage)
	return 2
}
