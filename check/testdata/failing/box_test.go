package failing

import (
	"os"
	"sync"
	"testing"
	"time"
)

// TestFatal: the race is there and the test fails with t.Fatal after it.
func TestFatal(t *testing.T) {
	b := &Box{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); b.SetA(1) }()
	time.Sleep(5 * time.Millisecond)
	_ = b.GetA()
	wg.Wait()
	t.Fatal("failing on purpose")
}

// TestPanic: the test goroutine panics after the race.
func TestPanic(t *testing.T) {
	b := &Box{}
	done := make(chan bool)
	go func() { b.SetB(1); done <- true }()
	time.Sleep(5 * time.Millisecond)
	_ = b.GetB()
	<-done
	panic("panicking on purpose")
}

// TestPanicInGoroutine: another goroutine panics after the race.
func TestPanicInGoroutine(t *testing.T) {
	b := &Box{}
	ch := make(chan int)
	go func() {
		b.SetC(1)
		ch <- 1
		panic("goroutine panics")
	}()
	time.Sleep(5 * time.Millisecond)
	_ = b.GetC()
	<-ch
	time.Sleep(100 * time.Millisecond)
}

// TestExit: os.Exit after the race.
func TestExit(t *testing.T) {
	b := &Box{}
	ch := make(chan int)
	go func() { b.SetD(1); ch <- 1 }()
	time.Sleep(5 * time.Millisecond)
	_ = b.GetD()
	<-ch
	os.Exit(3)
}
