package rt

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// sameTraceFile is the trace of sameTraceWork as the recorder wrote it
// before session 51 cut its per-event cost (main at 2559fabd): written by
// this test with PECANVET_RT_WRITE_SAMETRACE=1 set, on that tree.
const sameTraceFile = "testdata/sametrace.trace"

// sameTraceWork records one of every kind of event whose trace does not
// depend on the run: accesses of variables old and new (every allocation
// kept live, so that no name depends on the collector), nested regions,
// locks, atomics, a slice store with its length, a WaitGroup, a Once,
// buffered channels, and a child goroutine that takes turns with the test
// goroutine over unbuffered channels (each waits for the other, so the
// order of their events is the program's).
func sameTraceWork() {
	var keep []any
	c := heap[[4]int]()
	m := heap[sync.Mutex]()
	n := heap[int64]()
	s := heap[[]int]()
	wg := heap[sync.WaitGroup]()
	once := heap[sync.Once]()
	buf := make(chan int, 4)
	ping, pong := make(chan int), make(chan int)
	// Not recorded: the child's begin and end are written before it
	// signals them.
	begun, done := make(chan struct{}), make(chan struct{})
	id := Go(sGo)
	go func() {
		Begin(id)
		close(begun)
		for {
			v, ok := Recv2(ping, sRecv)
			if !ok {
				break
			}
			RegionBegin(sRegion)
			R(unsafe.Pointer(&c[v&3]), sRead)
			W(unsafe.Pointer(&c[v&3]), sWrite)
			RegionEnd(sRegion)
			AddInt64(n, 1, sAtomic)
			Send(pong, v, sSend)
		}
		End()
		close(done)
	}()
	<-begun
	for i := 0; i < 300; i++ {
		RegionBegin(sRegion)
		R(unsafe.Pointer(&c[i&3]), sRead)
		RegionBegin(sRegion)
		Lock(m, sLock)
		W(unsafe.Pointer(&c[(i+1)&3]), sWrite)
		Unlock(m, sUnlock)
		RegionEnd(sRegion)
		RegionEnd(sRegion)
		x := heap[[2]int]() // a new object each time: desc#k
		keep = append(keep, x)
		W(unsafe.Pointer(&x[1]), sElem)
		*XWL(s, sWrite)(make([]int, i&7)) = nil
		LoadInt64(n, sAtomic)
		if i%10 == 0 {
			WGAdd(wg, 1, sWGAdd)
			WGDone(wg, sWGDone)
			WGWait(wg, sWGWait)
			OnceDo(once, func() { W(unsafe.Pointer(&c[0]), sWrite) }, sOnce)
			Send(buf, i, sSendB)
			Send(buf, i+1, sSendB)
			Recv(buf, sRecvB)
			Recv(buf, sRecvB)
		}
		if i%3 == 0 {
			Send(ping, i, sSend)
			Recv(pong, sRecv)
		}
	}
	Close(ping, sClose)
	<-done
	sink = append(sink[:0], keep)
}

// TestRecordSameTrace: the recorder writes sameTraceWork's trace byte for
// byte as it did before its per-event cost was cut (the encoder's
// defined fast path, the caches of units and channel states): the change
// is one of speed only.
func TestRecordSameTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.bin")
	t.Setenv(EnvTrace, path)
	if err := reset(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { finish("") })
	sameTraceWork()
	if err := finish(""); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("PECANVET_RT_WRITE_SAMETRACE") != "" {
		if err := os.WriteFile(sameTraceFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(sameTraceFile)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got, want) {
		return
	}
	t.Errorf("the trace (%d bytes) differs from %s (%d bytes)", len(got), sameTraceFile, len(want))
	var texts [2][]string
	for i, b := range [][]byte{got, want} {
		tr, err := trace.ReadTrace(bytes.NewReader(b), "trace", trace.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		texts[i] = strings.Split(text(tr, len(tr.Events)), "\n")
	}
	for i := range min(len(texts[0]), len(texts[1])) {
		if texts[0][i] != texts[1][i] {
			t.Fatalf("line %d: %s, want %s", i+1, texts[0][i], texts[1][i])
		}
	}
	t.Fatalf("%d lines, want %d", len(texts[0]), len(texts[1]))
}

// TestChanOfCache: chanOf's cache gives each channel object its own
// state, the same one every time, across objects that share a slot.
func TestChanOfCache(t *testing.T) {
	w := newRecorder(discard{})
	states := map[int32]*chanState{}
	for round := 0; round < 3; round++ {
		for _, obj := range []int32{0, 1, ccacheSize, 2 * ccacheSize, 1 + ccacheSize, 5} {
			cs := w.chanOf(obj, int64(obj))
			if cs.cap != int64(obj) {
				t.Fatalf("object %d: the state of a channel of capacity %d", obj, cs.cap)
			}
			if old, ok := states[obj]; ok && old != cs {
				t.Fatalf("object %d: a new state in round %d", obj, round)
			}
			states[obj] = cs
			if w.chans[obj] != cs {
				t.Fatalf("object %d: chans holds another state", obj)
			}
		}
	}
}
