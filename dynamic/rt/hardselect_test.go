package rt

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"
)

const (
	hsGo int32 = 4100 + iota // after the others' 2000…4000
	hsA
	hsB
	hsC
	hsD
	hsE
	hsF
)

var _ = Register(hsGo, []Site{
	{Pos: "hs.go:1:1", Obj: "go"},
	{Pos: "hs.go:10:2", Obj: "chan"}, {Pos: "hs.go:11:2", Obj: "chan"},
	{Pos: "hs.go:10:2", Obj: "chan"}, {Pos: "hs.go:11:2", Obj: "chan"},
	{Pos: "hs.go:10:2", Obj: "chan"}, {Pos: "hs.go:11:2", Obj: "chan"},
})

// TestGoroutineOnly: a select waits for nothing but another goroutine
// when it has no default and each case is a send, or a receive on a
// channel of neither time.Time nor os.Signal that is not a receive-only
// channel of struct{} (a context's Done).
func TestGoroutineOnly(t *testing.T) {
	ch := make(chan int)
	var recvOnly <-chan int = ch
	var sendOnly chan<- int = ch
	var nilCh chan int
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, c := range []struct {
		name  string
		cases []SelCase
		want  bool
	}{
		{"bidirectional", []SelCase{{Site: 1, Ch: ch}, {Site: 2, Ch: make(chan struct{})}}, true},
		{"send on send-only", []SelCase{{Site: 1, Send: true, Ch: sendOnly}, {Site: 2, Ch: ch}}, true},
		{"nil and bidirectional", []SelCase{{Site: 1, Ch: nilCh}, {Site: 2, Ch: ch}}, true},
		{"receive-only", []SelCase{{Site: 1, Ch: ch}, {Site: 2, Ch: recvOnly}}, true},
		{"receive-only done", []SelCase{{Site: 1, Ch: ch}, {Site: 2, Ch: (<-chan struct{})(make(chan struct{}))}}, false},
		{"ctx.Done", []SelCase{{Site: 1, Ch: ch}, {Site: 2, Ch: ctx.Done()}}, false},
		{"time.After", []SelCase{{Site: 1, Ch: ch}, {Site: 2, Ch: time.After(time.Hour)}}, false},
		{"chan time.Time", []SelCase{{Site: 1, Ch: make(chan time.Time)}}, false},
		{"chan os.Signal", []SelCase{{Site: 1, Ch: make(chan os.Signal, 1)}}, false},
		{"default", []SelCase{{Site: 1, Ch: ch}, {Site: -1, Default: true}}, false},
		{"nil only", []SelCase{{Site: 1, Ch: nilCh}}, false},
	} {
		if got := goroutineOnly(c.cases); got != c.want {
			t.Errorf("%s: goroutineOnly = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestHangSelectHard: the hang watcher counts a goroutine parked in a
// select of instrumented code on two channels of the program as a
// recorded wait, and one whose select has a timer's or a context's case
// as a wait a timer might end (goroutines' TestPoolSuite hung with its
// miner in such a select, and the recording was cut as stalled, not
// reported). The goroutines note their selects at SelectGate and park;
// the dump is the one the runtime would give of selects at hs.go:9
// (this package's own frames count as rt's in a real one).
func TestHangSelectHard(t *testing.T) {
	done := recordTo(t)
	a, b := make(chan int), make(chan int)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tm := time.NewTimer(time.Hour)
	defer tm.Stop()
	var ended sync.WaitGroup
	for _, f := range []func(){
		func() { // g1.1: only goroutines can end it
			SelectGate(SelCase{Site: hsA, Ch: a}, SelCase{Site: hsB, Send: true, Ch: b})
			select {
			case <-a:
			case b <- 1:
			}
		},
		func() { // g1.2: a timer's case
			SelectGate(SelCase{Site: hsC, Ch: a}, SelCase{Site: hsD, Ch: tm.C})
			select {
			case <-a:
			case <-tm.C:
			}
		},
		func() { // g1.3: a context's case
			SelectGate(SelCase{Site: hsE, Ch: a}, SelCase{Site: hsF, Ch: ctx.Done()})
			select {
			case <-a:
			case <-ctx.Done():
			}
		},
	} {
		id := Go(hsGo)
		ended.Add(1)
		go func() {
			defer ended.Done()
			Begin(id)
			defer End()
			f()
		}()
	}
	// A goroutine this recording has not seen (an earlier test's) is
	// noted for the watcher all the same.
	stranger := make(chan int64, 1)
	ended.Add(1)
	go func() {
		defer ended.Done()
		stranger <- curGoid()
		SelectGate(SelCase{Site: hsA, Ch: a}, SelCase{Site: hsB, Send: true, Ch: b})
		select {
		case <-a:
		case b <- 1:
		}
	}()
	sid := <-stranger
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		mu.Lock()
		site := hardSelects[sid]
		mu.Unlock()
		if site == hsA+1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stranger's select not noted: %d", site)
		}
	}
	names := []string{"g1.1", "g1.2", "g1.3"}
	gs := make([]gstate, len(names))
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		noted := 0
		mu.Lock()
		for _, g := range rec.gmap {
			for i, n := range names {
				if g.name == n && g.blocked.kind == bSelect {
					gs[i] = gstate{id: g.goid, state: "select", class: gSoft, where: "hs.go:9"}
					noted++
				}
			}
		}
		mu.Unlock()
		if noted == len(names) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d selects noted", noted, len(names))
		}
	}
	mu.Lock()
	markHardSelects(gs)
	w := rec
	mu.Unlock()
	for i, want := range []bool{true, false, false} {
		if gs[i].hardSel != want {
			t.Errorf("%s counted hard: %v, want %v", names[i], gs[i].hardSel, want)
		}
	}
	if _, state := allBlocked(w, gs[:1]); state != blockedHard || !onlyRecordedWaits(gs[:1]) {
		t.Errorf("g1.1 alone: state %d, only recorded waits %v; want blocked hard, true", state, onlyRecordedWaits(gs[:1]))
	}
	if _, state := allBlocked(w, gs); state != blockedSoft {
		t.Errorf("all three: state %d, want blocked soft", state)
	}
	// A select at another line than the noted one's is not the noted one.
	other := []gstate{{id: gs[0].id, state: "select", class: gSoft, where: "hs.go:30"}}
	mu.Lock()
	markHardSelects(other)
	mu.Unlock()
	if other[0].hardSel {
		t.Errorf("a select after the noted one's line counted hard")
	}
	// The note outlives the recording: a later test's watcher sees the
	// goroutine still parked there.
	done()
	again := []gstate{{id: gs[0].id, state: "select", class: gSoft, where: "hs.go:9"}}
	mu.Lock()
	markHardSelects(again)
	mu.Unlock()
	if !again[0].hardSel {
		t.Errorf("g1.1 counted hard only while its test recorded")
	}
	close(a)
	ended.Wait()
}
