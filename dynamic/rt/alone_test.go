package rt

import (
	"sync"
	"testing"
	"time"
	"unsafe"
)

const (
	alGo int32 = 3700 + iota
	alWy
	alRy
	alWx
	alRx
	asLoad
	asStore
)

var _ = Register(alGo, []Site{
	{Pos: "al.go:1:1", Obj: "go"},
	{Pos: "al.go:2:1", Obj: "y"},
	{Pos: "al.go:3:1", Obj: "y"},
	{Pos: "al.go:4:1", Obj: "x"},
	{Pos: "al.go:5:1", Obj: "x"},
	{Pos: "al.go:6:1", Obj: "flag"},
	{Pos: "al.go:7:1", Obj: "flag"},
})

// aloneProg: g1.1 writes y then x; g1 reads y then x, and reports whether
// it saw x written.
func aloneProg() bool {
	v := heap[struct{ x, y int }]()
	var wg sync.WaitGroup
	wg.Add(1)
	id := Go(alGo)
	go func() {
		Begin(id)
		defer wg.Done()
		defer End()
		W(unsafe.Pointer(&v.y), alWy)
		v.y = 1
		W(unsafe.Pointer(&v.x), alWx)
		v.x = 1
	}()
	R(unsafe.Pointer(&v.y), alRy)
	_ = v.y
	R(unsafe.Pointer(&v.x), alRx)
	saw := v.x == 1
	wg.Wait()
	return saw
}

// TestReplayAnomalyFirst: after the verdict, the anomaly's goroutines go
// on first, in the order of their events, each alone until it may block
// or ends, and then the rest. g1.1, with no step left after its write of
// y, waits at its write of x; g1's read of y ends the schedule at g1's
// next gate, the read of x. Released together, g1 (running) read x before
// g1.1 (asleep at its gate) wrote it, in most runs and not in all: the
// program's end depended on the machine (getteract's TestRetire passed or
// failed under one schedule). Now g1.1 writes x first, every time.
func TestReplayAnomalyFirst(t *testing.T) {
	p := writeSchedule(t, "anomaly race/WR 2 3\n"+
		"g1 fork @al.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1.1 write y @al.go:2:1 n=1\n"+
		"g1 read y @al.go:3:1 n=1\n")
	for i := 0; i < 20; i++ {
		v, saw, _ := replayOnce(t, p, aloneProg)
		if v.Verdict != "reproduced" {
			t.Fatalf("run %d: verdict %+v, want reproduced", i, v)
		}
		if !saw {
			t.Fatalf("run %d: g1 read x before g1.1, the anomaly's first goroutine, wrote it", i)
		}
	}
}

// spinProg: g1.1 writes y, then spins on flag until g1 sets it after
// reading y.
func spinProg() bool {
	v := heap[struct {
		y    int
		flag int32
	}]()
	var wg sync.WaitGroup
	wg.Add(1)
	id := Go(alGo)
	go func() {
		Begin(id)
		defer wg.Done()
		defer End()
		W(unsafe.Pointer(&v.y), alWy)
		v.y = 1
		for LoadInt32(&v.flag, asLoad) == 0 {
		}
	}()
	R(unsafe.Pointer(&v.y), alRy)
	_ = v.y
	StoreInt32(&v.flag, 1, asStore)
	wg.Wait()
	return true
}

// TestReplayAloneSpin: a goroutine running alone after the verdict that
// spins on what another goroutine is to store passes gates that never
// block; its turn alone is bounded (pendingLong), and the program ends.
func TestReplayAloneSpin(t *testing.T) {
	p := writeSchedule(t, "anomaly race/WR 2 3\n"+
		"g1 fork @al.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1.1 write y @al.go:2:1 n=1\n"+
		"g1 read y @al.go:3:1 n=1\n")
	start := time.Now()
	v, _, _ := replayOnce(t, p, spinProg)
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced", v)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the replay took %v", d)
	}
}

// TestAloneSpins: a goroutine running alone is taken for a spin, and its
// hold ended, only once it has both run alone pendingLong and passed
// aloneSpin gates. On a loaded machine a goroutine released after its
// part of the anomaly may get no CPU for longer than pendingLong; the
// time alone ended its hold a few gates after the verdict, before its
// next wait, and the goroutines held for it ran beside it.
func TestAloneSpins(t *testing.T) {
	r := &replayer{}
	r.setAlone(&Goroutine{name: "g1.1"})
	r.aloneStart = time.Now().Add(-5 * pendingLong) // its thread got no CPU
	r.aloneGates = 3
	if r.aloneSpins() {
		t.Error("3 gates in 5 x pendingLong taken for a spin")
	}
	r.aloneGates = aloneSpin
	if !r.aloneSpins() {
		t.Errorf("%d gates in 5 x pendingLong not taken for a spin", aloneSpin)
	}
	r.aloneGates = 3
	r.aloneStart = time.Now().Add(-aloneLong)
	if !r.aloneSpins() {
		t.Error("a hold of aloneLong not ended")
	}
	r.setAlone(&Goroutine{name: "g1.1"})
	r.aloneGates = 10 * aloneSpin
	if r.aloneSpins() {
		t.Error("a spin taken for one before pendingLong")
	}
}

const (
	abGo int32 = 3750 + iota
	abRy
	abWy
	abWz
	abRecv
	abSend
)

var _ = Register(abGo, []Site{
	{Pos: "ab.go:1:1", Obj: "go"},
	{Pos: "ab.go:2:1", Obj: "y"},
	{Pos: "ab.go:3:1", Obj: "y"},
	{Pos: "ab.go:4:1", Obj: "z"},
	{Pos: "ab.go:5:1", Obj: "chan"},
	{Pos: "ab.go:6:1", Obj: "chan"},
})

// TestReplayAloneBlockEndsHold: after the verdict g1, the anomaly's first
// goroutine, runs alone; it writes z (a gate that does not block) and then
// waits for g1.1, held for it, in a receive or a select. Its gate there
// ends the hold at once. Before, a gate after the verdict only counted
// toward aloneSpins, and the hold ended at the watch's look after
// pendingGrace (here 20 s: at aloneLong, 1 s): lossyconn's
// TestScheduledPeerProfiles waited 10 ms so in ReadFrom's select for the
// packet its held sender had, and failed its timing check.
func TestReplayAloneBlockEndsHold(t *testing.T) {
	busyWithLongGrace(t)
	p := writeSchedule(t, "anomaly race/RW 1 3\n"+
		"g1 fork @ab.go:1:1 n=1\n"+
		"g1 read y @ab.go:2:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1.1 write y @ab.go:3:1 n=1\n")
	for _, sel := range []bool{false, true} {
		var waited time.Duration
		prog := func() bool {
			v := heap[struct{ y, z int }]()
			c := make(chan int)
			var wg sync.WaitGroup
			wg.Add(1)
			id := Go(abGo)
			go func() {
				Begin(id)
				defer wg.Done()
				defer End()
				W(unsafe.Pointer(&v.y), abWy)
				v.y = 1
				Send(c, 1, abSend)
			}()
			R(unsafe.Pointer(&v.y), abRy)
			_ = v.y
			W(unsafe.Pointer(&v.z), abWz)
			v.z = 1
			start := time.Now()
			if sel {
				SelectGate(SelCase{Site: abRecv, Cap: cap(c), Ch: c})
				select {
				case x, ok := <-c:
					Received(c, ok, abRecv)
					_ = x
				}
			} else {
				Recv(c, abRecv)
			}
			waited = time.Since(start)
			wg.Wait()
			return true
		}
		v, _, _ := replayOnce(t, p, prog)
		if v.Verdict != "reproduced" {
			t.Fatalf("select %v: verdict %+v, want reproduced", sel, v)
		}
		if waited >= aloneLong/2 {
			t.Errorf("select %v: g1 waited %v for the goroutine held while it ran alone", sel, waited)
		}
	}
}
