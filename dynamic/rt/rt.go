package rt

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// EnvTrace names the environment variable that switches recording on: the
// path of the trace file to write.
const EnvTrace = "PECANVET_TRACE"

// EnvMaxEvents, if set to a positive number, bounds the events of a
// recorded trace (not of a replay's): the recording stops there, the trace
// marked cut, and so does the process while its test runs (endCapped).
const EnvMaxEvents = "PECANVET_MAX_EVENTS"

// maxEvents is EnvMaxEvents; 0: no bound.
var maxEvents int64

// EnvMaxGoroutines, if set to a positive number, bounds the goroutines a
// recorded trace names (as an event's goroutine, or the one it forks or
// joins): the recording stops before the event that would name one more,
// as the checker's reading of a trace does (predict.ReadPrefix), and ends
// its test as at EnvMaxEvents.
const EnvMaxGoroutines = "PECANVET_MAX_GOROUTINES"

// maxGoroutines is EnvMaxGoroutines; 0: no bound.
var maxGoroutines int

// Site is one instrumented operation, registered by Register.
type Site struct {
	Pos string // module-relative "dir/file.go:line:col"
	Obj string // static description of the object touched ("Counter.n", "chan int", ...)
}

var (
	// active is true while a trace is being recorded: every wrapper
	// checks it first and, when it is false, only performs its operation.
	active atomic.Bool

	// mu orders everything: the trace file order is the order in which
	// events are handed to the recorder under mu.
	mu  sync.Mutex
	rec *recorder // the current recorder; nil when not recording

	// regs holds the registered sites by id (under mu). It is kept even
	// when recording is off, so that a recorder started later (tests)
	// knows them.
	regs []Site
)

// output is where the encoded trace goes.
type output interface {
	io.Writer
	close() error // after the encoder's Close: trim, flush, close the file
}

func init() {
	if n, err := strconv.ParseInt(getenv(EnvMaxEvents), 10, 64); err == nil && n > 0 {
		maxEvents = n
	}
	if n, err := strconv.Atoi(getenv(EnvMaxGoroutines)); err == nil && n > 0 {
		maxGoroutines = n
	}
	if setupFromTest() {
		recordsLater = true
		replayProcess = getenv(EnvTrace) != "" || replayList != nil
		return // recording starts with the test (teststart.go)
	}
	if path := getenv(EnvTrace); path != "" {
		replayProcess = true
		if err := start(path); err != nil {
			fmt.Fprintf(os.Stderr, "pecanvet: cannot record a trace: %v\n", err)
		} else if err := startReplay(); err != nil {
			fmt.Fprintf(os.Stderr, "pecanvet: cannot replay: %v\n", err)
			os.Exit(3)
		}
	}
}

// start begins recording into path. Any recorder already running is
// finished first.
func start(path string) error {
	finish("")
	if goidOff == 0 {
		goidOff = calibrate()
	}
	out, err := openOut(path)
	if err != nil {
		return err
	}
	emptyPools() // (pool.go)
	w := newRecorder(out)
	mu.Lock()
	rec = w
	clear(wgs)           // counts seen by an earlier recording (tests record many)
	freeAll.Store(false) // a new trace records everything until a replay of it goes free
	freeCut.Store(false)
	mu.Unlock()
	active.Store(true)
	watchHangs()
	return nil
}

// finish ends the current recording: it writes the held events, the
// truncation reason if any and the end marker, and closes the file. Events
// recorded afterwards are dropped.
//
// Events still held back wait for records that other goroutines are about
// to make (a send whose receive is already recorded): finish gives them up
// to finishGrace to arrive before writing the rest regardless.
func finish(reason string) error { return finishWithin(reason, finishGrace) }

// finishWithin is finish giving held events up to grace (ns) to arrive.
func finishWithin(reason string, grace int64) error {
	_, err := finishRec(nil, reason, grace)
	return err
}

// finishRec is finishWithin for recording want only (any, if nil): it
// reports whether it ended it, false when another call did first.
func finishRec(want *recorder, reason string, grace int64) (bool, error) {
	mu.Lock()
	w := rec
	if w == nil || want != nil && w != want {
		mu.Unlock()
		return false, nil
	}
	if rp != nil {
		rp.ended(reason)
	}
	deadline := now() + grace
	for i := 0; w.hb.n > 0 && now() < deadline; i++ {
		mu.Unlock()
		if i < 10 {
			runtime.Gosched()
		} else {
			time.Sleep(time.Millisecond)
		}
		mu.Lock()
		if rec != w {
			mu.Unlock()
			return false, nil // finished meanwhile
		}
	}
	active.Store(false)
	rec = nil
	w.noteStale()
	err := w.close(reason)
	mu.Unlock()
	return true, err
}

const finishGrace = int64(100e6) // ns

// RegisterQuiet is Register for a file of a package of another module
// instrumented only because a checked package imports it (instrument's
// moduleDeps): its plain memory accesses are neither recorded nor
// scheduled (quietLocked), its goroutines and synchronization are (and
// the plain accesses of its loud sites: see Sites). Races inside another
// module are its maintainers' business. (The main module's helper
// packages were quiet too until session 55: their accesses made the
// traces of golang-lru's root package, whose caches run simplelru's code
// under their lock, several times longer then; measured again with the
// event bound, 7% longer.)
func RegisterQuiet(first int32, sites []Site) bool {
	mu.Lock()
	defer mu.Unlock()
	if !registerLocked(first, sites) {
		return false
	}
	markQuietLocked(first, len(sites))
	return true
}

// markQuietLocked marks the n sites from first quiet, with mu held.
func markQuietLocked(first int32, n int) {
	for len(quiet) < int(first)+n {
		quiet = append(quiet, false)
	}
	for i := 0; i < n; i++ {
		quiet[int(first)+i] = true
	}
}

// quiet marks the sites registered by RegisterQuiet, by id.
var quiet []bool

// quietLocked reports, with mu held, whether op at site is a plain memory
// access that is not recorded (RegisterQuiet).
func quietLocked(site int32, op trace.Op) bool {
	return (op == trace.Read || op == trace.Write) && site >= 0 && int(site) < len(quiet) && quiet[site]
}

// RegisterNext records the sites with the next free ids and returns the
// first; RegisterNextQuiet is RegisterQuiet so. The instrumenter's files
// call them from a package-level variable initializer: ids handed out at
// init, rather than fixed in the rewritten file, leave a package's
// rewritten files the same whichever packages one build instruments
// besides, so the go command's build cache compiles them once for all the
// checks of a vet run. Package initialization runs in one order, fixed at
// link time, so every run of one binary gives each site the same id (and
// traces name sites by position, not by id).
func RegisterNext(sites []Site) int32 {
	mu.Lock()
	first := int32(len(regs))
	registerLocked(first, sites)
	mu.Unlock()
	return first
}

// RegisterNextQuiet is RegisterNext for a file of a package instrumented
// only because a checked package imports it (see RegisterQuiet).
func RegisterNextQuiet(sites []Site) int32 {
	mu.Lock()
	first := int32(len(regs))
	registerLocked(first, sites)
	markQuietLocked(first, len(sites))
	mu.Unlock()
	return first
}

// Register records the sites with ids first, first+1, … The result means
// nothing. (Instrumented files call RegisterNext.)
func Register(first int32, sites []Site) bool {
	mu.Lock()
	defer mu.Unlock()
	return registerLocked(first, sites)
}

// registerLocked is Register with mu held.
func registerLocked(first int32, sites []Site) bool {
	if first < 0 {
		return false
	}
	end := int(first) + len(sites)
	if end > len(regs) {
		if end > cap(regs) {
			c := 2 * cap(regs)
			if c < end {
				c = end
			}
			n := make([]Site, end, c)
			copy(n, regs)
			regs = n
		} else {
			regs = regs[:end]
		}
	}
	copy(regs[first:], sites)
	if w := rec; w != nil {
		// Sites re-registered with new contents are resolved again.
		for i := int(first); i < end && i < len(w.sites); i++ {
			w.sites[i] = siteInfo{}
		}
	}
	return true
}

// Finish ends the trace cleanly (end marker, file trimmed to its length). A
// generated TestMain calls it after m.Run returns. Later events are not
// recorded. (The name Close is taken by the channel close wrapper.)
func Finish() {
	finish("")
}

// Truncate ends the trace, marking it truncated with the given reason: for
// abnormal ends that the runtime or the generated TestMain detects (a
// timeout, a signal). Later events are not recorded.
func Truncate(reason string) {
	if reason == "" {
		reason = "truncated"
	}
	finish(reason)
}

// Exit replaces os.Exit in instrumented code: it ends the trace (marked
// truncated with "os.Exit(code)" unless code is 0) and exits.
func Exit(code int) {
	reason := ""
	if code != 0 {
		reason = "os.Exit(" + strconv.Itoa(code) + ")"
	}
	finish(reason)
	os.Exit(code)
}
