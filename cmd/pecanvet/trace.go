package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

const traceUsage = `usage: pecanvet trace [-text | -bin] [-o OUT] TRACE

Print a trace (text or binary) in the text format, one event per line, or
convert it to the binary format. TRACE "-" reads standard input. Binary
output goes to -o OUT, or to standard output when it is not a terminal.
OUT is written completely or not at all.

Flags:
`

func cmdTrace(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trace", flag.ContinueOnError)
	fs.SetOutput(stderr)
	text := fs.Bool("text", false, "write the text format (the default)")
	bin := fs.Bool("bin", false, "write the binary format")
	out := fs.String("o", "", "write to this file instead of standard output")
	lenient := fs.Bool("partial", false, "accept a partial binary trace (writer killed): keep its complete events")
	fs.Usage = func() {
		fmt.Fprint(stderr, traceUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 || *text && *bin {
		fs.Usage()
		return 2
	}
	path := fs.Arg(0)
	var tr *trace.Trace
	var err error
	opt := trace.ReadOptions{Lenient: *lenient}
	if path == "-" {
		tr, err = trace.ReadTrace(os.Stdin, "<stdin>", opt)
	} else {
		tr, err = trace.ReadFile(path, opt)
	}
	if err != nil {
		fmt.Fprintf(stderr, "pecanvet trace: %v\n", err)
		return 2
	}
	write := trace.WriteText
	if *bin {
		write = trace.WriteBinary
		if *out == "" && isTerminal(stdout) {
			fmt.Fprintln(stderr, "pecanvet trace: refusing to write a binary trace to a terminal; use -o FILE or redirect")
			return 2
		}
	}
	if *out == "" {
		if err := write(stdout, tr); err != nil {
			fmt.Fprintf(stderr, "pecanvet trace: %v\n", err)
			return 2
		}
		return 0
	}
	if err := writeFileAtomic(*out, func(w io.Writer) error { return write(w, tr) }); err != nil {
		fmt.Fprintf(stderr, "pecanvet trace: %v\n", err)
		return 2
	}
	return 0
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// writeFileAtomic writes path through a temporary file in the same
// directory and renames it into place, so a failure leaves no partial file.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
