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
// that got k.
func TestUnbufferedRecvPairing(t *testing.T) {
	const receivers = 3
	bad := 0
	const trials = 20
	for trial := 0; trial < trials; trial++ {
		read := recordTo(t)
		ch := make(chan int)
		got := make([]int, receivers)
		names := make([]string, receivers)
		done := make(chan bool, receivers)
		for i := 0; i < receivers; i++ {
			id := Go(sGo)
			names[i] = id.name
			go func(i int) {
				Begin(id)
				defer End()
				got[i] = Recv(ch, sRecv)
				done <- true
			}(i)
			for blocked("[chan receive]") < i+1 {
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
		var recvs []string
		for _, e := range tr.Events {
			if e.Op == trace.Recv && e.Site >= 0 {
				recvs = append(recvs, tr.Goroutines[e.G])
			}
		}
		if len(recvs) != receivers {
			t.Fatalf("%d receives recorded, want %d", len(recvs), receivers)
		}
		for i, k := range got {
			if recvs[k] != names[i] {
				bad++
				t.Logf("trial %d: %s got send %d, but receive %d is %s's (got %v, receives %v)", trial, names[i], k, k, recvs[k], got, recvs)
				break
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d traces pair an unbuffered channel's receives with the wrong sends", bad, trials)
	}
}

// blockedSends counts the goroutines blocked in a channel send, as a
// goroutine dump shows them.
func blockedSends() int { return blocked("[chan send]") }

// blocked counts the goroutines a goroutine dump shows in state, which
// includes the brackets.
func blocked(state string) int {
	buf := make([]byte, 1<<16)
	buf = buf[:runtime.Stack(buf, true)]
	return strings.Count(string(buf), state)
}
