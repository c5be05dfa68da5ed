package rt

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// TestUnbufferedSendPairing: several goroutines block sending their own
// number on one unbuffered channel, then one receiver takes the values.
// The engine pairs the k-th recorded send with the k-th recorded receive,
// so the k-th send's goroutine must be the one whose value the k-th
// receive got. Send records after `ch <- v` returns, when the woken sender
// next runs, and the runtime runs woken goroutines in its own order (each
// goready takes runnext, pushing the previous one back): before tickets
// (holdback.go, "Rendezvous order") the recorded sends came in wake-up
// order, not in the order they were received (18 of 20 traces;
// ratelimit's TestInitial: sends g.2, g.3, g.1 against received g.3,
// g.1, g.2), and a replay of the trace forced a value order that never
// happened.
func TestUnbufferedSendPairing(t *testing.T) {
	const senders = 3
	bad := 0
	const trials = 20
	for trial := 0; trial < trials; trial++ {
		read := recordTo(t)
		ch := make(chan int)
		names := make([]string, senders)
		for i := 0; i < senders; i++ {
			id := Go(sGo)
			names[i] = id.name
			go func(i int) {
				Begin(id)
				defer End()
				Send(ch, i, sSend)
			}(i)
			// Let it block in its send before the next one starts, so
			// that the runtime's queue of senders is 0, 1, 2.
			for blockedSends() < i+1 {
				runtime.Gosched()
			}
		}
		got := make([]int, senders)
		for k := range got {
			got[k] = Recv(ch, sRecv)
		}
		time.Sleep(time.Millisecond) // the senders record
		tr := read()
		consistent(t, tr)
		var sends []string
		for _, e := range tr.Events {
			if e.Op == trace.Send && e.Site >= 0 {
				sends = append(sends, tr.Goroutines[e.G])
			}
		}
		if len(sends) != senders {
			t.Fatalf("%d sends recorded, want %d", len(sends), senders)
		}
		for k, v := range got {
			if sends[k] != names[v] {
				bad++
				t.Logf("trial %d: receive %d got %s's value, but send %d is %s's (received %v, sends %v)", trial, k, names[v], k, sends[k], got, sends)
				break
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d traces pair an unbuffered channel's sends with the wrong receives", bad, trials)
	}
}

// TestUnbufferedRecvPairing is TestUnbufferedSendPairing's mirror:
// competing receivers block in turn on one unbuffered channel, then one
// sender sends 0, 1, 2; the k-th recorded receive must be the goroutine
// that got k. The receivers receive as instrumented code does: a plain
// receive, a range loop (a pool's workers), a select with another case.
func TestUnbufferedRecvPairing(t *testing.T) {
	const receivers = 3
	recvs := map[string]func(ch chan int) int{
		"recv": func(ch chan int) int { return Recv(ch, sRecv) },
		"range": func(ch chan int) int {
			c := ch
			RangeGate(c, sRecv)
			for v := range c {
				RangeRecv(c, true, sRecv)
				return v
			}
			RangeRecv(c, false, sRecv)
			return -1
		},
		"select": func(ch chan int) int {
			c1, c2 := ch, make(chan int)
			SelectGate(SelCase{Site: sRecv, Cap: cap(c1), Ch: c1}, SelCase{Site: sRecvB, Cap: cap(c2), Ch: c2})
			select {
			case v, ok := <-c1:
				Received(c1, ok, sRecv)
				return v
			case v, ok := <-c2:
				Received(c2, ok, sRecvB)
				return v
			}
		},
	}
	for name, recv := range recvs {
		t.Run(name, func(t *testing.T) {
			bad := 0
			const trials = 20
			for trial := 0; trial < trials; trial++ {
				read := recordTo(t)
				ch := make(chan int)
				got := make([]int, receivers)
				names := make([]string, receivers)
				done := make(chan bool, receivers)
				state := "[chan receive]"
				if name == "select" {
					state = "[select]"
				}
				for i := 0; i < receivers; i++ {
					id := Go(sGo)
					names[i] = id.name
					go func(i int) {
						Begin(id)
						defer End()
						got[i] = recv(ch)
						done <- true
					}(i)
					for blocked(state) < i+1 {
						runtime.Gosched()
					}
				}
				for k := 0; k < receivers; k++ {
					Send(ch, k, sSend)
				}
				for i := 0; i < receivers; i++ {
					<-done
				}
				tr := read()
				consistent(t, tr)
				var order []string
				for _, e := range tr.Events {
					if e.Op == trace.Recv && e.Site >= 0 {
						order = append(order, tr.Goroutines[e.G])
					}
				}
				if len(order) != receivers {
					t.Fatalf("%d receives recorded, want %d", len(order), receivers)
				}
				for i, k := range got {
					if order[k] != names[i] {
						bad++
						t.Logf("trial %d: %s got send %d, but receive %d is %s's (got %v, receives %v)", trial, names[i], k, k, order[k], got, order)
						break
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d traces pair an unbuffered channel's receives with the wrong sends", bad, trials)
			}
		})
	}
}

// blockedSends counts the goroutines blocked in a channel send in this
// file's code, as a goroutine dump shows them.
func blockedSends() int { return blocked("[chan send]") }

// blocked counts the goroutines blocked in state (which includes the
// brackets) in this file's code: not the test's parent, waiting in
// t.Run's receive (from this file), else a receiver could be counted before it blocked
// and two could take their tickets and block in opposite orders (the
// window holdback.go's "Rendezvous order" gives up on).
func blocked(state string) int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, state) && strings.Contains(g, "sendpair_test.go") && !strings.Contains(g, "testing.(*T).Run") {
			n++
		}
	}
	return n
}
