package rt

import (
	"runtime"
	"unsafe"
)

// Runtime goroutine ids.
//
// Every recorded event needs the calling goroutine's identity. The runtime
// does not export it; parsing the header line of runtime.Stack costs about a
// microsecond, far too much for the recording hot path. So on amd64 and
// arm64 a two-instruction assembly stub returns the runtime's g (from TLS or
// the g register), and the goid field is read at a fixed offset into it.
// That offset changes between Go releases, so it is not hard-coded: at start
// of recording, calibrate finds it by comparing, in three live goroutines,
// every 8-byte word of the first goidScan bytes of g against the id that
// runtime.Stack reports; exactly one offset must match in all three (the
// goroutines' ids differ from each other and from their parents', so
// parentGoid cannot match too). Cost: a call to the stub and one load, about
// 1-2 ns. If calibration fails, or on other architectures (or with the
// purego build tag), every lookup parses runtime.Stack instead: correct, but
// slow.
//
// The id is then mapped to the logical goroutine under the recorder's mutex,
// which every event takes anyway to get its place in the global order (see
// recorder.cur): a direct-mapped cache in front of a map, so no separate
// concurrent map is needed.

// goidScan bounds the calibration scan. The g struct is much larger (over
// 400 bytes in every Go release since 1.5), and goid has always been in its
// first 200 bytes.
const goidScan = 320

// goidOff is the offset of goid in the runtime's g, or 0 if unknown. It is
// written once, before recording is switched on.
var goidOff uintptr

// stackOK says that g starts with the goroutine's stack bounds (lo, hi), as
// it has since Go 1.4 (the offset is known to runtime/cgo); calibrate
// checks it.
var stackOK bool

// curGoid returns the runtime id of the calling goroutine.
func curGoid() int64 {
	if off := goidOff; off != 0 {
		return *(*int64)(unsafe.Add(getg(), off))
	}
	return slowGoid()
}

// self returns the runtime id of the calling goroutine and whether addr is
// on its stack. A variable on a goroutine's stack is private to that
// goroutine (escape analysis moves anything another goroutine can reach to
// the heap), so accesses to it can take part in no anomaly; and a stack
// moves when it grows, so its addresses do not identify variables (nor do
// they after the goroutine ended). The recorder skips such accesses.
func self(addr uintptr) (id int64, onStack bool) {
	if off := goidOff; off != 0 {
		g := getg()
		id = *(*int64)(unsafe.Add(g, off))
		if stackOK {
			lo, hi := *(*uintptr)(g), *(*uintptr)(unsafe.Add(g, 8))
			onStack = addr-lo < hi-lo
		}
		return id, onStack
	}
	return slowGoid(), false
}

// slowGoid parses "goroutine 123 [" from runtime.Stack.
func slowGoid() int64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	const prefix = "goroutine "
	if len(b) < len(prefix) || string(b[:len(prefix)]) != prefix {
		return 0
	}
	var id int64
	for _, c := range b[len(prefix):] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + int64(c-'0')
	}
	return id
}

// goidCandidates returns the offsets in the calling goroutine's g holding
// its id.
func goidCandidates() []uintptr {
	g := getg()
	if g == nil {
		return nil
	}
	id := uint64(slowGoid())
	if id == 0 {
		return nil
	}
	var offs []uintptr
	for off := uintptr(8); off < goidScan; off += 8 {
		if *(*uint64)(unsafe.Add(g, off)) == id {
			offs = append(offs, off)
		}
	}
	return offs
}

// calibrate finds goidOff; it returns 0 if it cannot be found reliably.
func calibrate() uintptr {
	if !haveGetg {
		return 0
	}
	const n = 3
	res := make(chan []uintptr, n)
	for i := 0; i < n; i++ {
		// Each goroutine scans its own g while it is alive.
		go func() { res <- goidCandidates() }()
	}
	count := map[uintptr]int{}
	for i := 0; i < n; i++ {
		for _, off := range <-res {
			count[off]++
		}
	}
	var found uintptr
	for off, c := range count {
		if c == n {
			if found != 0 {
				return 0 // ambiguous
			}
			found = off
		}
	}
	if found == 0 {
		return 0
	}
	// Check it in this goroutine too.
	if *(*int64)(unsafe.Add(getg(), found)) != slowGoid() {
		return 0
	}
	stackOK = checkStack()
	return found
}

// checkStack reports whether the first two words of g bound the stack,
// checked with a local variable of a few goroutines.
//
//go:noinline
func checkStack() bool {
	ok := make(chan bool)
	go func() {
		var local [16]byte
		g := getg()
		lo, hi := *(*uintptr)(g), *(*uintptr)(unsafe.Add(g, 8))
		a := uintptr(unsafe.Pointer(&local))
		heapSink = new([16]byte)
		heap := uintptr(unsafe.Pointer(heapSink))
		ok <- lo < hi && hi-lo >= 1024 && a-lo < hi-lo && heap-lo >= hi-lo
	}()
	return <-ok
}

var heapSink *[16]byte
