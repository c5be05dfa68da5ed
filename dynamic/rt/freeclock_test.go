//go:build linux || darwin

package rt

import (
	"reflect"
	"sync"
	"testing"
	"time"
	"unsafe"
)

const (
	fcGo int32 = 4200 + iota // after hardselect_test.go's 4100…
	fcA
	fcB
)

// The selects are reflect.Select's: a goroutine parked in a select of
// this package's code counts as in rt's (stuck.go), so the program's
// select is one whose innermost frame outside package runtime is
// reflect.rselect, in the runtime's select.go, and its site a line past any of that file's (blockedIn takes
// a goroutine parked at or before a select's first case for one in it).
var _ = Register(fcGo, []Site{
	{Pos: "freeclock_test.go:1:1", Obj: "go"},
	{Pos: "select.go:1000000:1", Obj: "chan"}, {Pos: "select.go:1000000:2", Obj: "chan"},
})

// parkSelect is SelectGate and a select on the receive cases chs.
func parkSelect(chs ...any) {
	cases := make([]SelCase, len(chs))
	sel := make([]reflect.SelectCase, len(chs))
	for i, ch := range chs {
		cases[i] = SelCase{Site: fcA + int32(i), Ch: ch}
		sel[i] = reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ch)}
	}
	SelectGate(cases...)
	reflect.Select(sel)
}

// freeSleepProg: g1.1 writes x, then g1 writes x (the schedule's race);
// after it g1 starts g1.2, which parks as park has it until g1 sends on
// a, sleeps d, and sends.
func freeSleepProg(d time.Duration, park func(a chan int)) func() bool {
	return func() bool {
		x := heap[int]()
		a := make(chan int)
		var wg sync.WaitGroup
		wg.Add(2)
		id := Go(kGo)
		go func() {
			Begin(id)
			defer wg.Done()
			defer End()
			W(unsafe.Pointer(x), kW1)
			*x = 1
		}()
		W(unsafe.Pointer(x), kW2)
		*x = 2
		id2 := Go(fcGo)
		go func() {
			Begin(id2)
			defer wg.Done()
			defer End()
			park(a)
		}()
		Sleep(d)
		a <- 1
		wg.Wait()
		return false
	}
}

const freeSchedule = "anomaly race/WW 3 4\n" +
	"g1 fork @k.go:1:1 n=1\n" +
	"g1.1 begin n=1\n" +
	"g1.1 write x @k.go:6:1 n=1\n" +
	"g1 write x @k.go:7:1 n=1\n"

// TestReplayFreeSleepVirtual: after the verdict the program runs free to
// its end, which is the anomaly's effect. When every goroutine then
// waits for another one or for the clock (g1 sleeps, g1.2 is parked in
// a select of instrumented code on channels only goroutines ready), the
// clock moves: go-promise's tests sleep about 6 s after most schedules,
// each replay waited them out in real time.
func TestReplayFreeSleepVirtual(t *testing.T) {
	p := writeSchedule(t, freeSchedule)
	b := make(chan int)
	start := time.Now()
	v, _, _ := replayOnce(t, p, freeSleepProg(time.Minute, func(a chan int) { parkSelect(a, b) }))
	took := time.Since(start)
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced", v)
	}
	if took > 20*time.Second {
		t.Errorf("the replay took %v: the sleep after the verdict was not shortened", took)
	}
}

// TestReplayFreeSleepReal: the same, with g1.2 parked where a timer or
// I/O outside the clock might wake it (a select with a timer's case, a
// receive outside instrumented code): that might come first in real
// time, and the sleep runs in real time.
func TestReplayFreeSleepReal(t *testing.T) {
	const d = 300 * time.Millisecond
	for name, park := range map[string]func(a chan int){
		"select on a timer": func(a chan int) {
			tm := time.NewTimer(time.Hour)
			defer tm.Stop()
			parkSelect(a, tm.C)
		},
		"receive outside instrumented code": func(a chan int) { reflect.ValueOf(a).Recv() },
	} {
		t.Run(name, func(t *testing.T) {
			p := writeSchedule(t, freeSchedule)
			start := time.Now()
			v, _, _ := replayOnce(t, p, freeSleepProg(d, park))
			took := time.Since(start)
			if v.Verdict != "reproduced" {
				t.Fatalf("verdict %+v, want reproduced", v)
			}
			if took < d {
				t.Errorf("the replay took %v: the sleep of %v after the verdict was cut short", took, d)
			}
		})
	}
}
