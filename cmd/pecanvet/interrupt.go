package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/pecanvet/pecanvet/internal/tmpdir"
)

// interruptGrace is how long the work may take to stop after the first
// interrupt before the process ends without it.
const interruptGrace = 20 * time.Second

// exitNow ends the process (a variable for tests).
var exitNow = os.Exit

// onInterrupt returns a context that the first SIGINT or SIGTERM cancels.
// The work then stops: the test processes are killed (each runs in its own
// process group, which a terminal's ^C does not reach, so without this
// they would run on to their own bounds) and the temporary directories are
// removed as the work returns. Stopping can still take long where a phase
// does not look at the context (reading replay traces back, say: a run
// was seen to go on for minutes after a CI job's SIGTERM), so a second
// signal, or the work not returning within grace of the first, ends the
// process at once with status 2, after removing the temporary directories
// it holds. stop releases the signals; call it when the work returns.
func onInterrupt(name string, stderr io.Writer, grace time.Duration) (context.Context, func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	ctx, stop := watchInterrupt(name, stderr, grace, sigs)
	return ctx, func() {
		signal.Stop(sigs)
		stop()
	}
}

// watchInterrupt is onInterrupt, with the signals read from sigs.
func watchInterrupt(name string, stderr io.Writer, grace time.Duration, sigs <-chan os.Signal) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan struct{})
	go func() {
		var sig os.Signal
		select {
		case sig = <-sigs:
		case <-done:
			return
		}
		// Under go vet a terminal's ^C reaches the go command too, which
		// exits at once: writing to its closed pipe would kill this
		// process by SIGPIPE before it removed anything.
		signal.Ignore(syscall.SIGPIPE)
		cancel(fmt.Errorf("interrupted (%v)", sig))
		fmt.Fprintf(stderr, "%s: %v: stopping; a second interrupt ends it at once\n", name, sig)
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-done:
			return
		case sig = <-sigs:
			fmt.Fprintf(stderr, "%s: %v again: ending now\n", name, sig)
		case <-t.C:
			fmt.Fprintf(stderr, "%s: the work did not stop within %v of the interrupt: ending now\n", name, grace)
		}
		tmpdir.RemoveHeld()
		exitNow(2)
	}()
	var once bool
	return ctx, func() {
		if !once {
			once = true
			close(done)
		}
		cancel(nil)
	}
}
