// Package grpc660fixed is grpc660 with the upstream fix of
// https://github.com/grpc/grpc-go/pull/660: the call's goroutine selects on
// bc.stop beside its send on done.
package grpc660fixed

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
				select {
				case <-bc.stop:
				case done <- false:
				}
				return
			}
			bc.mu.Lock()
			bc.calls++
			bc.mu.Unlock()
			select {
			case <-bc.stop:
			case done <- true:
			}
		}()
		select {
		case <-bc.stop:
			return
		case <-done:
		}
	}
}

func (bc *benchmarkClient) shutdown() { close(bc.stop) }
