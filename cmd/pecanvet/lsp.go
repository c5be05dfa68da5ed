package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/pecanvet/pecanvet/internal/lsp"
)

// cmdLSP serves the language server protocol on standard input and
// output, beside gopls (see internal/lsp).
func cmdLSP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pecanvet lsp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	patterns := fs.String("patterns", "", "anomaly patterns (as -pecan.patterns; default all)")
	budget := fs.Duration("budget", 0, "work budget for the dynamic check of one package, as the vet tool's -pecan.budget (default: its default)")
	maxReplays := fs.Int("maxreplays", 0, "replays per test at most (default: the vet tool's -pecan.maxreplays)")
	short := fs.Bool("short", false, "run the tests with -test.short (as the vet tool's -pecan.short)")
	replay := fs.Bool("replay", true, "after the static candidates, run the dynamic check (record, predict, replay); false: static candidates only")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: pecanvet lsp [flags]\n\nA language server on standard input and output, to run beside gopls: on open\nand save of a Go file, the static candidates of its package (unconfirmed,\nseverity information), then the reproduced findings (severity warning) with\nthe clip as related information.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "pecanvet lsp: unexpected arguments %q (it talks LSP on standard input and output)\n", fs.Args())
		return 2
	}
	tool, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "pecanvet lsp: %v\n", err)
		return 2
	}
	opt := lsp.Options{Tool: tool, Static: !*replay, Log: stderr}
	if *patterns != "" {
		opt.VetFlags = append(opt.VetFlags, "-pecan.patterns="+*patterns)
	}
	if *budget > 0 {
		opt.VetFlags = append(opt.VetFlags, "-pecan.budget="+budget.String())
	}
	if *maxReplays > 0 {
		opt.VetFlags = append(opt.VetFlags, fmt.Sprintf("-pecan.maxreplays=%d", *maxReplays))
	}
	if *short {
		opt.VetFlags = append(opt.VetFlags, "-pecan.short")
	}
	return lsp.Serve(stdin, stdout, opt)
}
