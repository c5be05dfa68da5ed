package syntax

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestShadow(t *testing.T) {
	if got := Shadow(); got != "NOT A PACKAGE!" {
		t.Error(got)
	}
}

func TestRegister(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 5; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); Register(fmt.Sprint(i)) }()
	}
	wg.Wait()
	if n := Register("last"); n != 6 {
		t.Error(n)
	}
}

func TestAccount(t *testing.T) {
	a := &Account{Balance: 1}
	a.Deposit(2)
	if !a.TryDeposit(3) || a.Balance != 6 || len(a.Log) != 1 {
		t.Error(a.Balance)
	}
	a.Lock()
	if a.TryDeposit(1) {
		t.Error("locked")
	}
	a.Unlock()
}

func TestLabeled(t *testing.T) {
	found, steps := Labeled([][]int{{1, -1, 5}, {3, 42, 4}})
	if found != 11 || steps != 7 {
		t.Error(found, steps)
	}
}

func TestSelectLoop(t *testing.T) {
	in := make(chan int)
	out := make(chan string, 100)
	quit := make(chan struct{})
	go func() {
		for i := 1; i <= 10; i++ {
			in <- i
		}
		close(quit)
	}()
	sum, err := SelectLoop(in, out, quit)
	if err != nil || sum != 55 {
		t.Error(sum, err)
	}
}

func TestClosures(t *testing.T) {
	if got := Closures(5); got != 12 {
		t.Error(got)
	}
}

func TestMethods(t *testing.T) {
	a, b := Methods()
	if a != 6 || b != 120 {
		t.Error(a, b)
	}
}

func TestRecover(t *testing.T) {
	err := Recover(func() {
		var m map[string]int
		m["x"] = 1
	})
	if err == nil || !strings.Contains(err.Error(), "nil map") {
		t.Error(err)
	}
	err = Recover(func() {
		var p *pt
		_ = p.x
	})
	if err == nil || !strings.Contains(err.Error(), "nil pointer") {
		t.Error(err)
	}
	err = Recover(func() {
		s := []int{1}
		i := 3
		s[i] = 2
	})
	if err == nil || !strings.Contains(err.Error(), "index out of range [3] with length 1") {
		t.Error(err)
	}
}

func TestChannels(t *testing.T) {
	if got := fmt.Sprint(Channels()); got != "[2 4 6]" {
		t.Error(got)
	}
}

func TestAtomics(t *testing.T) {
	h, r := Atomics()
	if h != 4 || r != 9 {
		t.Error(h, r)
	}
}

func TestCond(t *testing.T) {
	if Cond() != 3 {
		t.Error("cond")
	}
}

func TestOnce(t *testing.T) {
	if n := Once(); n != 1 {
		t.Error(n)
	}
}

func TestAssign(t *testing.T) {
	want := "2 1 {8 4} [9 1 2] 1 [2 1 3] 2 2 2 true [0 5 0] 2 1"
	if got := Assign(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if global != 7 || initialized != 6 {
		t.Error(global, initialized)
	}
}

func TestShortCircuit(t *testing.T) {
	if !ShortCircuit(nil) || !ShortCircuit(&pt{1, 0}) || ShortCircuit(&pt{0, 0}) {
		t.Error("short circuit")
	}
}

func TestSends(t *testing.T) {
	if got := Sends(); got != "myErr <nil> false" {
		t.Error(got)
	}
}

// TestSleeps calls time's Sleep and takes it as a value: both become
// rt.SleepAt and rt.Sleep, which behave alike when not replaying.
func TestSleeps(t *testing.T) {
	start := time.Now()
	time.Sleep(time.Millisecond)
	sleep := time.Sleep
	sleep(time.Millisecond)
	if time.Since(start) < 2*time.Millisecond {
		t.Error("slept less than asked")
	}
}

// TestTimers uses the clock's timers: calls, method values, a deferred
// Stop and an embedded ticker; rt's stand-ins behave alike when not
// replaying.
func TestTimers(t *testing.T) {
	tm := time.NewTimer(time.Hour)
	if !tm.Stop() || tm.Reset(time.Millisecond) {
		t.Error("Stop of a pending timer false, or Reset of a stopped one true")
	}
	<-tm.C
	stop := tm.Stop
	if stop() {
		t.Error("Stop of a fired, received timer true")
	}
	tk := time.NewTicker(time.Millisecond)
	defer tk.Stop()
	<-tk.C
	tk.Reset(time.Hour)
	var holder struct{ *time.Ticker }
	holder.Ticker = time.NewTicker(time.Hour)
	holder.Stop()
	<-time.After(time.Millisecond)
	if time.Tick(-1) != nil {
		t.Error("Tick of a negative duration")
	}
	done := make(chan bool)
	time.AfterFunc(time.Millisecond, func() { done <- true })
	<-done
	if time.Until(time.Now().Add(time.Hour)) <= 0 {
		t.Error("Until")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	<-ctx.Done()
	if ctx.Err() != context.DeadlineExceeded {
		t.Errorf("WithTimeout ended with %v", ctx.Err())
	}
	ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(time.Hour))
	cancel()
	if ctx.Err() != context.Canceled {
		t.Errorf("WithDeadline canceled with %v", ctx.Err())
	}
}

func TestExitValue(t *testing.T) {
	Exit = os.Exit
	if Exit == nil {
		t.Error("nil")
	}
}

func TestFailsOnPurposeToo(t *testing.T) {
	if os.Getenv("PECANVET_CORPUS_FAIL") != "" {
		t.Fatal("failing on purpose")
	}
}

func TestRangeSkip(t *testing.T) {
	ch := make(chan int)
	go func() {
		for _, v := range []int{1, 2, 5, 4, 3, 200, 7} {
			ch <- v
		}
		close(ch)
	}()
	// 1 + 3 (5 stops at k == 3) + 3; 200 breaks; 7 is left unsent... and
	// drained below.
	if got := RangeSkip(ch); got != 7 {
		t.Errorf("RangeSkip = %d, want 7", got)
	}
	for range ch {
	}
}

func TestRedeclare(t *testing.T) {
	got, err := Redeclare("a b c")
	if err != nil || strings.Join(got, " ") != "a b +c" {
		t.Error(got, err)
	}
	if _, err := Redeclare(""); err == nil {
		t.Error("no error for an empty spec")
	}
}
