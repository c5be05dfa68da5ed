// Package grpc660 reduces grpc/grpc-go#660
// (https://github.com/grpc/grpc-go/pull/660, benchmark: fix goroutine
// leaks in the benchmark client).
//
// doCloseLoopUnary issues one RPC at a time: a goroutine makes the call
// and sends its outcome on the unbuffered done channel, and the loop
// selects on bc.stop and done. When the client is shut down (bc.stop
// closed) during a call, the loop returns and the call's goroutine blocks
// on done for ever.
//
// Upstream fix: the call's goroutine selects on bc.stop as well as on its
// send, so it returns once the client stops.
package grpc660

import (
	"sync"
	"time"
)

type benchmarkClient struct {
	stop  chan struct{}
	mu    sync.Mutex
	calls int
}

func doUnaryCall() error {
	time.Sleep(2 * time.Millisecond)
	return nil
}

func (bc *benchmarkClient) doCloseLoopUnary() {
	done := make(chan bool)
	for {
		go func() {
			if err := doUnaryCall(); err != nil {
				done <- false
				return
			}
			bc.mu.Lock()
			bc.calls++
			bc.mu.Unlock()
			done <- true
		}()
		select {
		case <-bc.stop:
			return
		case <-done:
		}
	}
}

func (bc *benchmarkClient) shutdown() { close(bc.stop) }
