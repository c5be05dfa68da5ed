package rt

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// pingPong runs pairs of goroutines that ping-pong over channels of the
// given capacity, touching a shared counter under a lock and an atomic in
// between, then a shared work queue with several producers and consumers,
// and select statements.
func pingPong(pairs, rounds, capacity int) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	counter := heap[int]()
	var hits atomic.Int64
	for p := 0; p < pairs; p++ {
		ping, pong := make(chan int, capacity), make(chan int, capacity)
		WGAdd(&wg, 2, sWGAdd)
		id1 := Go(sGo)
		go func() {
			Begin(id1)
			defer End()
			for i := 0; i < rounds; i++ {
				Send(ping, i, sSend)
				Recv(pong, sRecv)
				Lock(&mu, sLock)
				R(unsafe.Pointer(counter), sRead)
				W(unsafe.Pointer(counter), sWrite)
				*counter++
				Unlock(&mu, sUnlock)
				Int64Add(&hits, 1, sAtomic)
			}
			Close(ping, sClose)
			WGDone(&wg, sWGDone)
		}()
		id2 := Go(sGo)
		go func() {
			Begin(id2)
			defer End()
			for {
				v, ok := Recv2(ping, sRecv)
				if !ok {
					break
				}
				Int64Load(&hits, sAtomic)
				if v%3 == 0 {
					runtime.Gosched()
				}
				Send(pong, v, sSend)
			}
			WGDone(&wg, sWGDone)
		}()
	}

	// Work queue: producers and consumers on one channel.
	queue := make(chan int, capacity)
	results := make(chan int)
	var prod sync.WaitGroup
	for i := 0; i < 3; i++ {
		WGAdd(&prod, 1, sWGAdd)
		id3 := Go(sGo)
		go func() {
			Begin(id3)
			defer End()
			for j := 0; j < rounds; j++ {
				Send(queue, j, sSend)
			}
			WGDone(&prod, sWGDone)
		}()
	}
	for i := 0; i < 3; i++ {
		id4 := Go(sGo)
		go func() {
			Begin(id4)
			defer End()
			n := 0
			for {
				_, ok := Recv2(queue, sRecv)
				if !ok {
					break
				}
				n++
			}
			Send(results, n, sSendB)
		}()
	}
	id5 := Go(sGo)
	go func() {
		Begin(id5)
		defer End()
		WGWait(&prod, sWGWait)
		Close(queue, sClose)
	}()

	// Selects: one goroutine sends on two channels, the other receives
	// from whichever is ready, until both are closed.
	a, b := make(chan int), make(chan int, capacity)
	id6 := Go(sGo)
	go func() {
		Begin(id6)
		defer End()
		for i := 0; i < rounds; i++ {
			select {
			case a <- i:
				Sent(a, sSend)
			case b <- i:
				Sent(b, sSendB)
			}
		}
		Close(a, sClose)
		Close(b, sClose)
	}()
	id7 := Go(sGo)
	go func() {
		Begin(id7)
		defer End()
		for a != nil || b != nil {
			select {
			case _, ok := <-a:
				Received(a, ok, sRecv)
				if !ok {
					a = nil
				}
			case _, ok := <-b:
				Received(b, ok, sRecvB)
				if !ok {
					b = nil
				}
			}
		}
		Send(results, 0, sSendB)
	}()

	total := 0
	for i := 0; i < 4; i++ {
		total += Recv(results, sRecvB)
	}
	WGWait(&wg, sWGWait)
	if total != 3*rounds {
		panic("lost work")
	}
}

// TestConsistency records many runs of pingPong and checks that the engine
// finds every trace consistent with happens-before: this is what the
// reorder buffer is for.
//
// A run whose buffer had to force an event out is counted, not checked:
// a party's ticket and its place in the runtime's channel queue are not
// taken in one step (holdback.go, "Rendezvous order"), so a goroutine
// descheduled between the two can leave its side's order unknowable. CI
// saw it once in many thousands of runs (a producer on the unbuffered
// work queue); more than one such run in n is a regression.
func TestConsistency(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 20
	}
	var held, events int64
	maxN, forcedRuns := 0, 0
	for i := 0; i < n; i++ {
		read := recordForced(t)
		pingPong(4, 30, i%3)
		mu.Lock()
		held += rec.hb.total
		if rec.hb.maxN > maxN {
			maxN = rec.hb.maxN
		}
		mu.Unlock()
		tr, forced := read()
		events += int64(len(tr.Events))
		if forced != 0 {
			forcedRuns++
			t.Logf("run %d: %d events forced out of the reorder buffer", i, forced)
			if forcedRuns > 1 {
				t.Fatalf("%d of %d runs forced events out of the reorder buffer", forcedRuns, i+1)
			}
			continue
		}
		consistent(t, tr)
		if t.Failed() {
			t.Fatalf("run %d", i)
		}
	}
	t.Logf("%d runs, %d events, %d held back (at most %d at once), %d runs forced", n, events, held, maxN, forcedRuns)
}

// TestHoldback drives the reorder buffer directly with events arriving in
// orders that break the rules, and checks the order written.
func TestHoldback(t *testing.T) {
	type step struct {
		g     string
		op    trace.Op
		obj   string
		cap   int64
		flags uint8
	}
	cases := []struct {
		name string
		in   []step
		want []string // "g op obj"
	}{
		{"recv before send",
			[]step{{"b", trace.Recv, "c", 0, 0}, {"b", trace.Read, "x", 0, 0}, {"a", trace.Send, "c", 0, 0}, {"a", trace.Write, "y", 0, 0}},
			[]string{"a send c", "b recv c", "b read x", "a write y"}},
		{"unbuffered sender waits for the receive",
			[]step{{"a", trace.Send, "c", 0, 0}, {"a", trace.Unlock, "l", 0, 0}, {"c", trace.Lock, "l", 0, 0}, {"b", trace.Recv, "c", 0, 0}},
			[]string{"a send c", "b recv c", "a unlock l", "c lock l"}},
		{"buffered send waits for room",
			[]step{{"a", trace.Send, "c", 1, 0}, {"a", trace.Send, "c", 1, 0}, {"b", trace.Recv, "c", 1, 0}},
			[]string{"a send c", "b recv c", "a send c"}},
		{"closed receive waits for the held close",
			[]step{{"a", trace.Recv, "d", 1, 0}, {"a", trace.Close, "c", 1, 0}, {"b", trace.Recv, "c", 1, trace.FlagClosed}, {"e", trace.Send, "d", 1, 0}},
			[]string{"e send d", "a recv d", "a close c", "b recv c closed"}},
		{"close waits for earlier sends",
			[]step{{"b", trace.Recv, "c", 1, 0}, {"b", trace.Send, "d", 1, 0}, {"c", trace.Close, "d", 1, 0}, {"a", trace.Send, "c", 1, 0}},
			[]string{"a send c", "b recv c", "b send d", "c close d"}},
		{"fork before begin",
			[]step{{"b", trace.Recv, "c", 1, 0}, {"b", trace.Fork, "k", 0, 0}, {"k", trace.Begin, "", 0, 0}, {"a", trace.Send, "c", 1, 0}},
			[]string{"a send c", "b recv c", "b fork k", "k begin"}},
		{"atomic load after the held store",
			[]step{{"b", trace.Recv, "c", 1, 0}, {"b", trace.AtomicStore, "v", 0, 0}, {"d", trace.AtomicLoad, "v", 0, 0}, {"d", trace.Read, "z", 0, 0}, {"e", trace.Read, "z", 0, 0}, {"a", trace.Send, "c", 1, 0}},
			[]string{"a send c", "b recv c", "b atomic-store v", "d atomic-load v", "d read z", "e read z"}},
		// A receive that saw a close never recorded (a context's Done) may
		// have been caused by any event that arrived before it: it is not
		// written ahead of the held ones (go-quartz: Start's <-ctx.Done()
		// written before the held Stop that closed it).
		{"foreign receive keeps its arrival order",
			[]step{{"b", trace.Recv, "c", 1, 0}, {"b", trace.Write, "x", 0, 0}, {"a", trace.Recv, "d", 0, trace.FlagClosed}, {"a", trace.Read, "y", 0, 0}, {"e", trace.Send, "c", 1, 0}},
			[]string{"e send c", "b recv c", "b write x", "a recv d closed", "a read y"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			read := recordTo(t)
			mu.Lock()
			w := rec
			gs := map[string]*Goroutine{}
			objs := map[string]int32{}
			for _, s := range c.in {
				g := gs[s.g]
				if g == nil {
					g = w.newG(s.g)
					gs[s.g] = g
				}
				ev := trace.Event{Op: s.op, Obj: trace.NoIndex, Site: trace.NoIndex, Arg: s.cap, Flags: s.flags}
				switch s.op.Object() {
				case trace.ObjObject:
					o, ok := objs[s.obj]
					if !ok {
						o = w.unit(s.obj)
						objs[s.obj] = o
					}
					ev.Obj = o
				case trace.ObjGoroutine:
					k := gs[s.obj]
					if k == nil {
						k = w.newG(s.obj)
						gs[s.obj] = k
					}
					ev.Obj = k.idx
				}
				w.emit(g, ev)
			}
			mu.Unlock()
			tr := read()
			if got := lines(tr); !equal(got, c.want) {
				t.Errorf("\n got %q\nwant %q", got, c.want)
			}
		})
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestHoldbackForced checks the bounds: an event whose partner is never
// recorded (a channel fed by uninstrumented code) is written after the
// timeout, and its channel is no longer checked.
func TestHoldbackForced(t *testing.T) {
	t.Run("closed", testForeignClose)
	read := recordTo(t)
	tick := make(chan int, 1)
	tick <- 1 // "uninstrumented" send
	Recv(tick, sRecv)
	x := heap[int]()
	W(unsafe.Pointer(x), sWrite) // held behind the receive
	mu.Lock()
	held := rec.hb.n
	for i := range rec.hb.gs {
		for _, h := range rec.hb.gs[i].q {
			h.at -= 2 * holdTimeout // pretend they waited long
		}
	}
	rec.hb.tick = 63
	mu.Unlock()
	R(unsafe.Pointer(x), sRead) // arrival: checks the timeout
	tick <- 2
	Recv(tick, sRecv) // foreign now: not held
	mu.Lock()
	forced, n := rec.hb.forced, rec.hb.n
	rec.hb.forced = 0 // read() checks it is 0
	mu.Unlock()
	tr := read()
	if held != 2 || forced != 1 || n != 0 {
		t.Errorf("held %d, forced %d, still held %d", held, forced, n)
	}
	want := []string{"g1 recv chan_int#1", "g1 write Counter.n#1", "g1 read Counter.n#1", "g1 recv chan_int#1"}
	if got := lines(tr); !equal(got, want) {
		t.Errorf("\n got %q\nwant %q", got, want)
	}
}

// TestSyncObjectReuse: channels, WaitGroups and Onces that the GC
// collected and whose addresses were reused are distinct objects, each with
// its own counts and close.
func TestSyncObjectReuse(t *testing.T) {
	read := recordTo(t)
	const n = 60
	addrs := map[uintptr]bool{}
	wgAddrs := map[uintptr]bool{}
	for i := 0; i < n; i++ {
		ch := make(chan int)
		wg := new(sync.WaitGroup)
		once := new(sync.Once)
		addrs[uintptr(chanAddr(unsafe.Pointer(&ch)))] = true
		wgAddrs[uintptr(unsafe.Pointer(wg))] = true
		WGAdd(wg, 1, sWGAdd)
		id := Go(sGo)
		go func() {
			Begin(id)
			defer End()
			OnceDo(once, func() {}, sOnce)
			Send(ch, i, sSend)
			Close(ch, sClose)
			WGDone(wg, sWGDone)
		}()
		Recv(ch, sRecv)
		Recv2(ch, sRecv)
		WGWait(wg, sWGWait)
		OnceDo(once, func() {}, sOnce)
		ch, wg, once = nil, nil, nil
		runtime.GC()
	}
	tr := read()
	consistent(t, tr)
	objs := map[trace.Op]map[string]bool{}
	for _, e := range tr.Events {
		if objs[e.Op] == nil {
			objs[e.Op] = map[string]bool{}
		}
		objs[e.Op][tr.ObjName(e)] = true
	}
	t.Logf("%d channels at %d addresses, WaitGroups at %d", n, len(addrs), len(wgAddrs))
	for _, op := range []trace.Op{trace.Send, trace.Close, trace.WGWait, trace.OnceDo} {
		if len(objs[op]) != n {
			t.Errorf("%d %s objects, want %d", len(objs[op]), op, n)
		}
	}
}

// testForeignClose: a receive that saw a close that was never recorded is
// not held.
func testForeignClose(t *testing.T) {
	read := recordTo(t)
	done := make(chan int)
	close(done) // "uninstrumented" close
	Recv2(done, sRecv)
	x := heap[int]()
	W(unsafe.Pointer(x), sWrite)
	mu.Lock()
	held, foreign := rec.hb.total, rec.hb.foreign
	mu.Unlock()
	tr := read()
	if held != 0 || foreign != 1 {
		t.Errorf("held %d, foreign %d", held, foreign)
	}
	want := []string{"g1 recv chan_int#1 closed", "g1 write Counter.n#1"}
	if got := lines(tr); !equal(got, want) {
		t.Errorf("\n got %q\nwant %q", got, want)
	}
}

// TestHoldbackRoot: a goroutine started by uninstrumented code (a plain go
// statement here, a library's pool in conc) while its creator's events are
// held back is written after them: its creator forked it after they
// happened. Before, the root's first event went straight to the trace,
// ahead of its creator's earlier events, and replaying that order could
// never start it (conc's pool tests: most of their replays).
func TestHoldbackRoot(t *testing.T) {
	read := recordTo(t)
	mu.Lock()
	w := rec
	obj := func(name string) int32 {
		return w.unit(name)
	}
	c, x, y := obj("c"), obj("x"), obj("y")
	self := w.cur()
	// The receive arrives before its send: held, and the write after it.
	w.emit(self, trace.Event{Op: trace.Recv, Obj: c, Site: trace.NoIndex, Arg: 1})
	w.emit(self, trace.Event{Op: trace.Write, Obj: x, Site: trace.NoIndex})
	mu.Unlock()
	done := make(chan struct{})
	go func() { // not through Go: a root
		mu.Lock()
		w.emit(w.cur(), trace.Event{Op: trace.Write, Obj: y, Site: trace.NoIndex})
		mu.Unlock()
		close(done)
	}()
	<-done
	mu.Lock()
	w.emit(w.newG("sender"), trace.Event{Op: trace.Send, Obj: c, Site: trace.NoIndex, Arg: 1})
	mu.Unlock()
	tr := read()
	want := []string{"sender send c", "g1 recv c", "g1 write x", "g2 write y"}
	if got := lines(tr); !equal(got, want) {
		t.Errorf("\n got %q\nwant %q", got, want)
	}
}

// TestHoldbackForeignLate: events held on a channel before it is found
// foreign keep their arrival order with the other held events once it is
// (barHeld). ttlcache's expiration loop received its timer (T) at 0.9 s
// and 1.9 s, the test its own time.After (A) at 1.5 s, none with a
// recorded send; forcing out the loop's first receive made T foreign,
// and its second receive, ready by that alone, was written ahead of the
// test's older one, so the trace ran the loop's 1.9 s tick before the
// test's 1.5 s wake and every replay held the test past it.
func TestHoldbackForeignLate(t *testing.T) {
	read := recordForced(t)
	mu.Lock()
	w := rec
	obj := func(name string) int32 {
		return w.unit(name)
	}
	tm, a, x, y := obj("T"), obj("A"), obj("x"), obj("y")
	loop, test := w.newG("loop"), w.newG("test")
	w.emit(loop, trace.Event{Op: trace.Recv, Obj: tm, Site: trace.NoIndex, Arg: 1})
	w.emit(test, trace.Event{Op: trace.Recv, Obj: a, Site: trace.NoIndex, Arg: 1})
	w.emit(test, trace.Event{Op: trace.Write, Obj: y, Site: trace.NoIndex})
	w.emit(loop, trace.Event{Op: trace.Recv, Obj: tm, Site: trace.NoIndex, Arg: 1})
	w.emit(loop, trace.Event{Op: trace.Read, Obj: x, Site: trace.NoIndex})
	if w.hb.n != 5 {
		t.Errorf("held %d, want 5", w.hb.n)
	}
	w.force(w.oldest(), true) // the loop's first receive, past holdTimeout
	w.force(w.oldest(), true) // the test's receive
	w.hb.forced = 0
	mu.Unlock()
	tr, _ := read()
	want := []string{"loop recv T", "test recv A", "test write y", "loop recv T", "loop read x"}
	if got := lines(tr); !equal(got, want) {
		t.Errorf("\n got %q\nwant %q", got, want)
	}
}

// TestHoldbackTickets: on an unbuffered channel, the parties that blocked
// are written in the order they blocked (their tickets), whatever the
// order they arrive in; a party that completed at once after they
// blocked waits for them too (holdback.go, "Rendezvous order").
func TestHoldbackTickets(t *testing.T) {
	const done = 0xff // a step's flags: g completes now, its event comes later
	// A step blocks g (takes its ticket: block) or emits g's event, with
	// g's ticket if it blocked, else as a party that completed just now.
	type step struct {
		g     string
		op    trace.Op
		block bool
		flags uint8
	}
	cases := []struct {
		name          string
		in            []step
		want          []string // "g op obj"
		forcedTickets int64
	}{
		{"blocked senders woken last first",
			[]step{{"a", trace.Send, true, 0}, {"b", trace.Send, true, 0}, {"c", trace.Send, true, 0},
				{"r", trace.Recv, false, 0}, {"r", trace.Recv, false, 0}, {"r", trace.Recv, false, 0},
				{"c", trace.Send, false, 0}, {"b", trace.Send, false, 0}, {"a", trace.Send, false, 0}},
			[]string{"a send c", "b send c", "c send c", "r recv c", "r recv c", "r recv c"}, 0},
		{"blocked receivers woken last first",
			[]step{{"a", trace.Recv, true, 0}, {"b", trace.Recv, true, 0},
				{"s", trace.Send, false, 0}, {"s", trace.Send, false, 0},
				{"b", trace.Recv, false, 0}, {"a", trace.Recv, false, 0}},
			[]string{"s send c", "a recv c", "s send c", "b recv c"}, 0},
		// A receive that completed at once after a blocked receiver took
		// its send cannot have overtaken it.
		{"active receive waits for the earlier blocked one",
			[]step{{"a", trace.Recv, true, 0}, {"s", trace.Send, false, 0},
				{"t", trace.Send, true, 0}, {"r", trace.Recv, false, 0}, {"t", trace.Send, false, 0}, {"a", trace.Recv, false, 0}},
			[]string{"s send c", "t send c", "a recv c", "r recv c"}, 0},
		// a completed at once (its sender was waiting) before b blocked;
		// a's event arrives last, b's, served by the next send, first.
		{"blocked receive waits for an earlier completed one",
			[]step{{"s", trace.Send, true, 0}, {"a", trace.Recv, false, done}, {"b", trace.Recv, true, 0},
				{"t", trace.Send, false, 0}, {"b", trace.Recv, false, 0}, {"s", trace.Send, false, 0}, {"a", trace.Recv, false, 0}},
			[]string{"s send c", "a recv c", "t send c", "b recv c"}, 0},
		// Woken by the close, the blocked sends saw it closed: they pair
		// with nothing and wait for no ticket.
		{"closed sends wait for no ticket",
			[]step{{"a", trace.Send, true, 0}, {"b", trace.Send, true, 0}, {"k", trace.Close, false, 0},
				{"b", trace.Send, false, trace.FlagClosed}, {"a", trace.Send, false, trace.FlagClosed}},
			[]string{"k close c", "b send c closed", "a send c closed"}, 0},
		// a took its ticket first but blocked second (or never): b's send,
		// received, cannot wait for it for good. Finishing forces it out,
		// giving up a's place, not the channel's checks.
		{"ticket taken before blocking later",
			[]step{{"a", trace.Send, true, 0}, {"b", trace.Send, true, 0}, {"r", trace.Recv, false, 0}, {"b", trace.Send, false, 0}},
			[]string{"b send c", "r recv c"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			read := recordTo(t)
			mu.Lock()
			w := rec
			gs := map[string]*Goroutine{}
			tks := map[string]tick{}
			o := w.unit("c")
			w.chanOf(o, 0)
			for _, s := range c.in {
				g := gs[s.g]
				if g == nil {
					g = w.newG(s.g)
					gs[s.g] = g
				}
				if s.block {
					tks[s.g] = w.takeTicket(o, s.op)
					continue
				}
				if s.flags == done {
					// completed at once, its event arrives later
					tks[s.g] = tick{n: tickets.Add(1), active: true}
					continue
				}
				tk, ok := tks[s.g]
				if !ok && s.op != trace.Close && s.flags == 0 {
					tk = tick{n: tickets.Add(1), active: true} // completed at once
				}
				delete(tks, s.g)
				w.nextTick = tk
				w.emit(g, trace.Event{Op: s.op, Obj: o, Site: trace.NoIndex, Flags: s.flags})
			}
			w.flushHeld()
			forced := w.hb.forcedTickets
			mu.Unlock()
			tr := read()
			if got := lines(tr); !equal(got, c.want) {
				t.Errorf("\n got %q\nwant %q", got, c.want)
			}
			if forced != c.forcedTickets {
				t.Errorf("%d events forced past an earlier ticket, want %d", forced, c.forcedTickets)
			}
		})
	}
}
