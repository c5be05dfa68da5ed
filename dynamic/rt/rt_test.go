package rt

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// Sites used by the tests: ids 1000.. (so that tests of Register can use
// others).
const (
	sRead int32 = 1000 + iota
	sWrite
	sLock
	sUnlock
	sGo
	sWGAdd
	sWGDone
	sWGWait
	sOnce
	sCondWait
	sCondSignal
	sAtomic
	sSend
	sRecv
	sClose
	sRegion
	sElem
	sMap
	sChanB
	sSendB
	sRecvB
	sLast
)

var _ = Register(sRead, []Site{
	{Pos: "a/x.go:10:2", Obj: "Counter.n"},
	{Pos: "a/x.go:11:2", Obj: "Counter.n"},
	{Pos: "a/x.go:12:2", Obj: "Counter.mu"},
	{Pos: "a/x.go:13:2", Obj: "Counter.mu"},
	{Pos: "a/x.go:14:2", Obj: "go"},
	{Pos: "a/x.go:15:2", Obj: "wg"},
	{Pos: "a/x.go:16:2", Obj: "wg"},
	{Pos: "a/x.go:17:2", Obj: "wg"},
	{Pos: "a/x.go:18:2", Obj: "once"},
	{Pos: "a/x.go:19:2", Obj: "Q.cond"},
	{Pos: "a/x.go:20:2", Obj: "Q.cond"},
	{Pos: "a/x.go:21:2", Obj: "hits"},
	{Pos: "a/x.go:22:2", Obj: "chan int"},
	{Pos: "a/x.go:23:2", Obj: "chan int"},
	{Pos: "a/x.go:24:2", Obj: "chan int"},
	{Pos: "a/x.go:25:2", Obj: "Counter.Inc"},
	{Pos: "a/x.go:26:2", Obj: "[]int elem"},
	{Pos: "a/x.go:27:2", Obj: "map[string]int"},
	{Pos: "a/x.go:28:2", Obj: "chan bool"},
	{Pos: "a/x.go:29:2", Obj: "chan bool"},
	{Pos: "a/x.go:30:2", Obj: "chan bool"},
})

// sink makes test variables escape to the heap: the recorder skips
// accesses to the calling goroutine's stack.
var sink []any

func heap[T any]() *T {
	p := new(T)
	sink = append(sink[:0], p)
	return p
}

// reset restarts recording as the environment says (tests only).
func reset() error {
	finish("")
	if p := getenv(EnvTrace); p != "" {
		return start(p)
	}
	return nil
}

// recordTo starts recording into a temporary file; the returned function
// finishes the trace and reads it back, and fails t if the reorder buffer
// had to force an event out.
func recordTo(t testing.TB) func() *trace.Trace {
	t.Helper()
	read := recordForced(t)
	return func() *trace.Trace {
		t.Helper()
		tr, forced := read()
		if forced != 0 {
			t.Errorf("%d events forced out of the reorder buffer", forced)
		}
		return tr
	}
}

// recordForced is recordTo for callers that judge forced events
// themselves: the returned function also gives their number.
func recordForced(t testing.TB) func() (*trace.Trace, int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "trace.bin")
	t.Setenv(EnvTrace, path)
	if err := reset(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { finish("") })
	return func() (*trace.Trace, int64) {
		t.Helper()
		mu.Lock()
		w := rec
		mu.Unlock()
		Finish()
		var forced int64
		if w != nil {
			forced = w.hb.forced
			if w.hb.forcedTickets != 0 && !t.Failed() {
				t.Logf("%d events forced past an earlier ticket", w.hb.forcedTickets)
			}
		}
		tr, err := trace.ReadFile(path, trace.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Check(); err != nil {
			t.Fatal(err)
		}
		return tr, forced
	}
}

// consistent fails t if the engine finds the trace inconsistent.
func consistent(t testing.TB, tr *trace.Trace) {
	t.Helper()
	gr := ptg.Build(tr)
	if len(gr.Warn) > 0 {
		t.Errorf("ptg warnings:\n%s\ntrace:\n%s", strings.Join(gr.Warn, "\n"), text(tr, 200))
	}
}

// text renders (the start of) a trace for failure messages.
func text(tr *trace.Trace, max int) string {
	var b strings.Builder
	short := *tr
	if len(short.Events) > max {
		short.Events = short.Events[:max]
	}
	trace.WriteText(&b, &short)
	return b.String()
}

// lines returns the events as "g op obj" strings.
func lines(tr *trace.Trace) []string {
	var out []string
	for _, e := range tr.Events {
		s := tr.Goroutines[e.G] + " " + e.Op.String()
		if o := tr.ObjName(e); o != "" {
			s += " " + o
		}
		if e.Flags&trace.FlagClosed != 0 {
			s += " closed"
		}
		out = append(out, s)
	}
	return out
}

// ofG returns the lines of goroutine g.
func ofG(tr *trace.Trace, g string) []string {
	var out []string
	for _, l := range lines(tr) {
		if strings.HasPrefix(l, g+" ") {
			out = append(out, strings.TrimPrefix(l, g+" "))
		}
	}
	return out
}

func TestOff(t *testing.T) {
	t.Setenv(EnvTrace, "")
	if err := reset(); err != nil {
		t.Fatal(err)
	}
	var x int
	R(unsafe.Pointer(&x), sRead)
	var m sync.Mutex
	Lock(&m, sLock)
	Unlock(&m, sUnlock)
	ch := make(chan int, 1)
	Send(ch, 1, sSend)
	if v := Recv(ch, sRecv); v != 1 {
		t.Fatal(v)
	}
	var n int32
	if AddInt32(&n, 2, sAtomic) != 2 {
		t.Fatal("AddInt32")
	}
	var wg sync.WaitGroup
	done := false
	WGGo(&wg, func() { done = true }, sGo)
	WGWait(&wg, sWGWait)
	if !done {
		t.Fatal("WGGo")
	}
	id := Go(sGo)
	if id != nil {
		t.Fatal("Go returned an id while not recording")
	}
}

func TestBasic(t *testing.T) {
	read := recordTo(t)
	type counter struct {
		mu sync.Mutex
		n  int
	}
	var c counter
	var wg sync.WaitGroup
	var hits atomic.Int64
	WGAdd(&wg, 2, sWGAdd)
	for i := 0; i < 2; i++ {
		id := Go(sGo)
		go func() {
			Begin(id)
			defer End()
			Lock(&c.mu, sLock)
			R(unsafe.Pointer(&c.n), sRead)
			W(unsafe.Pointer(&c.n), sWrite)
			c.n++
			Unlock(&c.mu, sUnlock)
			Int64Add(&hits, 1, sAtomic)
			WGDone(&wg, sWGDone)
		}()
	}
	WGWait(&wg, sWGWait)
	R(unsafe.Pointer(&c.n), sRead)
	if Int64Load(&hits, sAtomic) != 2 {
		t.Fatal("hits")
	}
	s := *heap[[]int]()
	s = append(s, 1, 2)
	sink = append(sink, s)
	W(unsafe.Pointer(&s[1]), sElem)
	m := map[string]int{}
	sink = append(sink, m)
	W(*(*unsafe.Pointer)(unsafe.Pointer(&m)), sMap)
	RegionBegin(sRegion)
	RegionEnd(sRegion)
	tr := read()
	consistent(t, tr)

	got := lines(tr)
	main := tr.Goroutines[tr.Events[0].G]
	if main != "g1" {
		t.Errorf("first goroutine %q, want g1", main)
	}
	// The Add from 0 also reads the WaitGroup's memory (wg#2: the race
	// detector's model), and the Wait writes it if it blocks, which
	// depends on whether the children are done.
	want := []string{
		"wg-add wg#1", "read wg#2", "fork g1.1", "fork g1.2", "wg-wait wg#1", "read Counter.n#1",
		"atomic-load hits#1", "write []int_elem#1", "write map[string]int#1",
		"region-begin Counter.Inc", "region-end Counter.Inc",
	}
	g1 := ofG(tr, "g1")
	blocked := slices.Contains(g1, "write wg#2")
	if blocked {
		want = slices.Insert(want, 4, "write wg#2")
	}
	if fmt.Sprint(g1) != fmt.Sprint(want) {
		t.Errorf("g1:\n got %q\nwant %q", g1, want)
	}
	for _, child := range []string{"g1.1", "g1.2"} {
		want := []string{"begin", "lock Counter.mu#1", "read Counter.n#1", "write Counter.n#1",
			"unlock Counter.mu#1", "atomic-rmw hits#1", "wg-done wg#1", "end"}
		g := ofG(tr, child)
		if len(g) == len(want)-1 {
			// The end comes after wg-done: the trace may be finished
			// before the goroutine records it.
			want = want[:len(want)-1]
		}
		if fmt.Sprint(g) != fmt.Sprint(want) {
			t.Errorf("%s:\n got %q\nwant %q", child, g, want)
		}
	}
	if n := len(want); len(got) < n+2*7 || len(got) > n+2*8 {
		t.Errorf("%d events", len(got))
	}
	// Sites and Arg.
	for _, e := range tr.Events {
		if e.Op == trace.WGAdd && (e.Arg != 2 || tr.Site(e) != "a/x.go:15:2") {
			t.Errorf("wg-add: arg %d site %s", e.Arg, tr.Site(e))
		}
	}
}

func TestOnceCond(t *testing.T) {
	read := recordTo(t)
	var once sync.Once
	var wg sync.WaitGroup
	runs := 0
	for i := 0; i < 4; i++ {
		WGAdd(&wg, 1, sWGAdd)
		id := Go(sGo)
		go func() {
			Begin(id)
			defer End()
			OnceDo(&once, func() { runs++ }, sOnce)
			WGDone(&wg, sWGDone)
		}()
	}
	WGWait(&wg, sWGWait)

	// Cond: a queue with a waiter.
	var qmu sync.Mutex
	cond := sync.NewCond(&qmu)
	ready := false
	WGAdd(&wg, 1, sWGAdd)
	id := Go(sGo)
	go func() {
		Begin(id)
		defer End()
		Lock(&qmu, sLock)
		for !ready {
			CondWait(cond, sCondWait)
		}
		Unlock(&qmu, sUnlock)
		WGDone(&wg, sWGDone)
	}()
	Lock(&qmu, sLock)
	ready = true
	CondSignal(cond, sCondSignal)
	Unlock(&qmu, sUnlock)
	WGWait(&wg, sWGWait)
	tr := read()
	consistent(t, tr)
	if runs != 1 {
		t.Fatal(runs)
	}
	// The first once event is the goroutine that ran f: check by the
	// engine's rule, all others after it; and exactly 4 once events.
	n := 0
	for _, e := range tr.Events {
		if e.Op == trace.OnceDo {
			n++
		}
	}
	if n != 4 {
		t.Errorf("%d once events", n)
	}
	// The waiter's events: lock, [unlock, cond-wait, lock]*, unlock.
	waiter := ofG(tr, "g1.5")
	if len(waiter) < 5 || waiter[1] != "lock Counter.mu#1" && waiter[1] != "lock Q.cond#1" {
		t.Logf("waiter %q", waiter)
	}
	for i, l := range waiter {
		if strings.HasPrefix(l, "cond-wait") {
			if waiter[i-1] != strings.Replace(waiter[i+1], "lock", "unlock", 1) {
				t.Errorf("cond-wait not between unlock and lock: %q", waiter)
			}
		}
	}
}

// TestOnceFirst checks that the call that ran f records first even when the
// others return at once.
func TestOnceFirst(t *testing.T) {
	for i := 0; i < 20; i++ {
		read := recordTo(t)
		var once sync.Once
		var wg sync.WaitGroup
		start := make(chan struct{})
		ran := make([]bool, 4)
		names := make([]string, 4)
		for j := 0; j < 4; j++ {
			j := j
			WGAdd(&wg, 1, sWGAdd)
			id := Go(sGo)
			names[j] = id.name
			go func() {
				Begin(id)
				defer End()
				<-start
				OnceDo(&once, func() { ran[j] = true }, sOnce)
				WGDone(&wg, sWGDone)
			}()
		}
		close(start)
		WGWait(&wg, sWGWait)
		tr := read()
		consistent(t, tr)
		for _, e := range tr.Events {
			if e.Op == trace.OnceDo {
				g := tr.Goroutines[e.G]
				for j := range names {
					if names[j] == g && !ran[j] {
						t.Fatalf("first once event by %s, which did not run f", g)
					}
				}
				break
			}
		}
	}
}

func TestTryLockRW(t *testing.T) {
	read := recordTo(t)
	var m sync.Mutex
	var rw sync.RWMutex
	if !TryLock(&m, sLock) {
		t.Fatal("TryLock")
	}
	if TryLock(&m, sLock) {
		t.Fatal("TryLock twice")
	}
	Unlock(&m, sUnlock)
	if !TryRLock(&rw, sLock) {
		t.Fatal("TryRLock")
	}
	RUnlock(&rw, sUnlock)
	RLock(&rw, sLock)
	RUnlock(&rw, sUnlock)
	Lock(rw.RLocker(), sLock)
	Unlock(rw.RLocker(), sUnlock)
	Lock(&rw, sLock)
	Unlock(&rw, sUnlock)
	tr := read()
	consistent(t, tr)
	want := []string{"lock Counter.mu#1", "unlock Counter.mu#1",
		"rlock Counter.mu#2", "runlock Counter.mu#2", "rlock Counter.mu#2", "runlock Counter.mu#2",
		"rlock Counter.mu#2", "runlock Counter.mu#2", "lock Counter.mu#2", "unlock Counter.mu#2"}
	if g := ofG(tr, "g1"); fmt.Sprint(g) != fmt.Sprint(want) {
		t.Errorf("\n got %q\nwant %q", g, want)
	}
}

func TestAtomics(t *testing.T) {
	read := recordTo(t)
	a, b, p, v, up := heap[int32](), heap[atomic.Uint64](), heap[atomic.Pointer[int]](), heap[atomic.Value](), heap[unsafe.Pointer]()
	sink = append(sink, a, b, p, v)
	x := 1
	StoreInt32(a, 5, sAtomic)
	if !CompareAndSwapInt32(a, 5, 6, sAtomic) || CompareAndSwapInt32(a, 5, 7, sAtomic) {
		t.Fatal("CAS")
	}
	if LoadInt32(a, sAtomic) != 6 || SwapInt32(a, 1, sAtomic) != 6 {
		t.Fatal("Load/Swap")
	}
	Uint64Store(b, 3, sAtomic)
	if Uint64Add(b, 2, sAtomic) != 5 || !Uint64CompareAndSwap(b, 5, 1, sAtomic) {
		t.Fatal("Uint64")
	}
	PointerStore(p, &x, sAtomic)
	if PointerLoad(p, sAtomic) != &x {
		t.Fatal("Pointer")
	}
	ValueStore(v, "s", sAtomic)
	if ValueLoad(v, sAtomic) != "s" {
		t.Fatal("Value")
	}
	StorePointer(up, unsafe.Pointer(&x), sAtomic)
	if LoadPointer(up, sAtomic) != unsafe.Pointer(&x) {
		t.Fatal("LoadPointer")
	}
	tr := read()
	consistent(t, tr)
	want := []string{
		"atomic-store hits#1", "atomic-rmw hits#1", "atomic-load hits#1", "atomic-load hits#1", "atomic-rmw hits#1",
		"atomic-store hits#2", "atomic-rmw hits#2", "atomic-rmw hits#2",
		"atomic-store hits#3", "atomic-load hits#3",
		"atomic-store hits#4", "atomic-load hits#4",
		"atomic-store hits#5", "atomic-load hits#5",
	}
	if g := ofG(tr, "g1"); fmt.Sprint(g) != fmt.Sprint(want) {
		t.Errorf("\n got %q\nwant %q", g, want)
	}
}

func TestChannels(t *testing.T) {
	read := recordTo(t)
	ch := make(chan int, 2)
	done := make(chan bool)
	id := Go(sGo)
	go func() {
		Begin(id)
		defer End()
		sum := 0
		for {
			v, ok := Recv2(ch, sRecv)
			if !ok {
				break
			}
			sum += v
		}
		Send(done, sum == 6, sSendB)
	}()
	for i := 1; i <= 3; i++ {
		Send(ch, i, sSend)
	}
	Close(ch, sClose)
	if !Recv(done, sRecvB) {
		t.Fatal("sum")
	}
	// select with Sent / Received.
	c2 := make(chan int)
	id = Go(sGo)
	go func() {
		Begin(id)
		defer End()
		select {
		case c2 <- 7:
			Sent(c2, sSend)
		}
	}()
	select {
	case v, ok := <-c2:
		Received(c2, ok, sRecv)
		if v != 7 {
			t.Fatal(v)
		}
	}
	tr := read()
	consistent(t, tr)
	child := ofG(tr, "g1.1")
	want := []string{"begin", "recv chan_int#1", "recv chan_int#1", "recv chan_int#1", "recv chan_int#1 closed",
		"send chan_bool#1", "end"}
	if len(child) == len(want)-1 {
		want = want[:len(want)-1] // finished before the end was recorded
	}
	if fmt.Sprint(child) != fmt.Sprint(want) {
		t.Errorf("\n got %q\nwant %q", child, want)
	}
	for _, e := range tr.Events {
		if tr.ObjName(e) == "chan_int#1" && e.Arg != 2 {
			t.Errorf("cap %d", e.Arg)
		}
	}
}

// TestGoroutineNames checks the logical ids: a tree of goroutines spawned
// deterministically has the same names in two runs, and roots are named in
// order of first event.
func TestGoroutineNames(t *testing.T) {
	run := func() []string {
		read := recordTo(t)
		var wg sync.WaitGroup
		var spawn func(depth int)
		spawn = func(depth int) {
			if depth == 0 {
				return
			}
			for i := 0; i < 2; i++ {
				WGAdd(&wg, 1, sWGAdd)
				id := Go(sGo)
				go func() {
					Begin(id)
					defer End()
					spawn(depth - 1)
					WGDone(&wg, sWGDone)
				}()
			}
		}
		spawn(3)
		WGWait(&wg, sWGWait)
		// A goroutine not started through Go is a new root.
		done := make(chan bool)
		go func() {
			R(unsafe.Pointer(heap[int]()), sRead)
			done <- true
		}()
		<-done
		tr := read()
		consistent(t, tr)
		var forks []string
		for _, e := range tr.Events {
			if e.Op == trace.Fork {
				forks = append(forks, tr.Goroutines[e.G]+">"+tr.Goroutines[e.Obj])
			}
		}
		sort.Strings(forks)
		names := append([]string(nil), tr.Goroutines...)
		sort.Strings(names)
		return append(forks, names...)
	}
	a, b := run(), run()
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("runs differ:\n%q\n%q", a, b)
	}
	joined := strings.Join(a, " ")
	for _, want := range []string{"g1>g1.1", "g1>g1.2", "g1.2>g1.2.1", "g1.2.2>g1.2.2.2", " g2"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no %q in %q", want, a)
		}
	}
}

func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{
		"":              "obj",
		"Counter.n":     "Counter.n",
		"[]int elem":    "[]int_elem",
		"#x=1":          "_x_1",
		"@a\tb":         "_a_b",
		"map[k]v":       "map[k]v",
		"ünïcode\u200b": "ünïcode_",
	} {
		if got := sanitizeName(in); got != want {
			t.Errorf("sanitizeName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"a/b.go:1:2":   "a/b.go:1:2",
		"a/b.go:3":     "a/b.go:3",
		"a b.go:3:4":   "a_b.go:3:4",
		"a/b.go":       "",
		"a/b.go:0:1":   "",
		":3":           "",
		"a.go:1:x":     "",
		"c:/x.go:12:3": "c:/x.go:12:3",
	} {
		if got := sanitizeSite(in); got != want {
			t.Errorf("sanitizeSite(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUnknownSite(t *testing.T) {
	read := recordTo(t)
	x, y := heap[[2]int](), heap[[2]int]()
	sink = append(sink, x, y)
	R(unsafe.Pointer(&x[0]), 1<<30)
	R(unsafe.Pointer(&x[0]), -1)
	Register(900, []Site{{Pos: "bad site", Obj: "v"}})
	W(unsafe.Pointer(&y[1]), 900)
	R(unsafe.Pointer(&x[0]), 900) // an address keeps its first name
	tr := read()
	if len(tr.Events) != 4 {
		t.Fatalf("%d events", len(tr.Events))
	}
	for _, e := range tr.Events {
		if e.Site != trace.NoIndex {
			t.Errorf("site %q", tr.Site(e))
		}
	}
	if got := lines(tr); got[0] != "g1 read obj#1" || got[2] != "g1 write v#1" || got[3] != "g1 read obj#1" {
		t.Errorf("%q", got)
	}
}

func TestStackSkipped(t *testing.T) {
	read := recordTo(t)
	var local int
	R(unsafe.Pointer(&local), sRead)
	W(unsafe.Pointer(heap[int]()), sWrite)
	tr := read()
	want := []string{"g1 write Counter.n#1"}
	if !stackOK {
		t.Skip("no stack bounds on this platform")
	}
	if got := lines(tr); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestGoid(t *testing.T) {
	if haveGetg && goidOff == 0 {
		goidOff = calibrate()
		if goidOff == 0 {
			t.Fatal("goid calibration failed")
		}
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if a, b := curGoid(), slowGoid(); a != b || a == 0 {
				t.Errorf("curGoid %d, runtime.Stack %d", a, b)
			}
		}()
	}
	wg.Wait()
	t.Logf("goid offset %d, stack bounds check %v", goidOff, stackOK)
	if haveGetg && !stackOK {
		t.Error("stack bounds check failed")
	}
}

// TestMaxEvents: a recording bounded by EnvMaxEvents stops at the bound
// and says why in the trace; with capEnds off, the program runs on.
func TestMaxEvents(t *testing.T) {
	defer func(n int64, e bool) { maxEvents, capEnds = n, e }(maxEvents, capEnds)
	maxEvents, capEnds = 10, false
	read := recordTo(t)
	x := heap[int]()
	for i := 0; i < 100; i++ {
		W(unsafe.Pointer(x), sWrite)
		*x = i
	}
	if active.Load() {
		t.Error("still recording past the bound")
	}
	tr := read()
	if len(tr.Events) != 10 || !strings.HasPrefix(tr.Truncated, "cut at 10 events") {
		t.Errorf("%d events, truncated %q; want 10, cut at 10 events", len(tr.Events), tr.Truncated)
	}
	if *x != 99 {
		t.Errorf("the program did not run on: x = %d", *x)
	}
}

const capEnv = "PECANVET_RT_CAP"

// TestCapChild is TestCapEndsTest's child: it writes a variable in a loop
// for up to a minute.
func TestCapChild(t *testing.T) {
	if getenv(capEnv) == "" {
		t.Skip("only run by TestCapEndsTest")
	}
	x := heap[int]()
	for end := time.Now().Add(time.Minute); time.Now().Before(end); {
		W(unsafe.Pointer(x), sWrite)
		*x++
	}
	t.Fatal("ran to the loop's end")
}

// TestCapEndsTest: a recording that reaches EnvMaxEvents ends its test
// there (the process exits), with the trace flushed, readable and marked
// cut at that many events, rather than running the test on unrecorded.
func TestCapEndsTest(t *testing.T) {
	if getenv(capEnv) != "" {
		t.Skip("in the child")
	}
	path := filepath.Join(t.TempDir(), "trace.bin")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCapChild$", "-test.count=1", "-test.timeout=2m")
	cmd.Env = append(os.Environ(), capEnv+"=1", EnvTrace+"="+path, EnvMaxEvents+"=5000")
	start := time.Now()
	out, exit := cmd.CombinedOutput()
	took := time.Since(start)
	if exit == nil {
		t.Fatalf("the child passed:\n%s", out)
	}
	if strings.Contains(string(out), "ran to the loop's end") || took > 30*time.Second {
		t.Fatalf("the child ran %v past its cap: %v\n%s", took, exit, out)
	}
	if !strings.Contains(string(out), "reached its cap of 5000 events") {
		t.Errorf("the child does not say why it ended:\n%s", out)
	}
	tr, err := trace.ReadFile(path, trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) != 5000 || !strings.HasPrefix(tr.Truncated, "cut at 5000 events") {
		t.Errorf("%d events, truncated %q; want 5000, cut at 5000 events", len(tr.Events), tr.Truncated)
	}
	t.Logf("the child ended after %v: %v", took.Round(time.Millisecond), exit)
}

// forkEach forks n goroutines one after another, each writing x once,
// and waits for each before the next: a run whose trace is the same each
// time.
func forkEach(n int) {
	x := heap[int]()
	for i := 0; i < n; i++ {
		done := make(chan struct{})
		id := Go(sGo)
		go func() {
			Begin(id)
			defer close(done)
			defer End()
			W(unsafe.Pointer(x), sWrite)
			*x = i
		}()
		<-done
	}
}

// TestMaxGoroutines: a recording bounded by EnvMaxGoroutines stops before
// the event that would name one goroutine more, and keeps exactly the
// events the checker would predict from in the whole trace
// (predict.ReadPrefix), none after them; the program runs on.
func TestMaxGoroutines(t *testing.T) {
	const n = predict.MaxGoroutines + 20
	read := recordTo(t)
	forkEach(n)
	whole := read()
	path := filepath.Join(t.TempDir(), "whole.bin")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.WriteBinary(f, whole); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	want, cut, err := predict.ReadPrefix(path, 0)
	if err != nil || !cut {
		t.Fatalf("ReadPrefix of the whole trace: cut %v, %v", cut, err)
	}

	defer func(n int, e bool) { maxGoroutines, capEnds = n, e }(maxGoroutines, capEnds)
	maxGoroutines, capEnds = predict.MaxGoroutines, false
	read = recordTo(t)
	forkEach(n)
	if active.Load() {
		t.Error("still recording past the bound")
	}
	got := read()
	if len(got.Events) != len(want.Events) || len(got.Goroutines) != predict.MaxGoroutines {
		t.Fatalf("%d events naming %d goroutines, want %d naming %d", len(got.Events), len(got.Goroutines), len(want.Events), predict.MaxGoroutines)
	}
	if g, w := lines(got), lines(want); fmt.Sprint(g) != fmt.Sprint(w) {
		t.Errorf("the capped trace differs from the prefix the checker reads")
	}
	if !strings.HasPrefix(got.Truncated, fmt.Sprintf("cut at %d events, before one naming goroutine %d", len(want.Events), predict.MaxGoroutines+1)) {
		t.Errorf("truncated %q", got.Truncated)
	}
}
