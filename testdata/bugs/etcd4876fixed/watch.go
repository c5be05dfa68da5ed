// Package etcd4876fixed is etcd4876 with the upstream fix of
// https://github.com/etcd-io/etcd/pull/4876: the interval is an int32 of
// milliseconds, stored by the test and loaded by sendLoop atomically.
package etcd4876fixed

import (
	"sync"
	"sync/atomic"
	"time"
)

// ProgressReportIntervalMilliseconds is how often a watch stream reports
// progress; read and written with sync/atomic.
var ProgressReportIntervalMilliseconds = int32(10 * 60 * 1000)

// WatchResponse is one message on a watch stream.
type WatchResponse struct{ ProgressNotify bool }

type serverWatchStream struct {
	watchStream chan WatchResponse
	closec      chan struct{}
	wg          sync.WaitGroup
}

func (sws *serverWatchStream) sendLoop() {
	defer sws.wg.Done()
	interval := time.Duration(atomic.LoadInt32(&ProgressReportIntervalMilliseconds)) * time.Millisecond
	progressTicker := time.NewTicker(interval)
	defer progressTicker.Stop()
	for {
		select {
		case <-progressTicker.C:
			select {
			case sws.watchStream <- WatchResponse{ProgressNotify: true}:
			case <-sws.closec:
				return
			}
		case <-sws.closec:
			return
		}
	}
}

func (sws *serverWatchStream) close() {
	close(sws.closec)
	sws.wg.Wait()
}

type watchServer struct{}

// Watch opens a watch stream whose responses arrive on the returned
// stream's watchStream.
func (ws *watchServer) Watch() *serverWatchStream {
	sws := &serverWatchStream{watchStream: make(chan WatchResponse), closec: make(chan struct{})}
	sws.wg.Add(1)
	go sws.sendLoop()
	return sws
}
