// Package etcd4876 reduces etcd-io/etcd#4876
// (https://github.com/etcd-io/etcd/pull/4876, *: fix races from
// clientv3/integration tests; the progress-notify race of that pull
// request).
//
// Each watch stream's sendLoop reads the package variable
// ProgressReportInterval when it starts, to make its progress ticker.
// TestWatchWithProgressNotify accelerates the interval by assigning the
// variable while the cluster's servers already run watch streams: the
// test's write and a running sendLoop's read are not ordered, a data
// race.
//
// Upstream fix: the interval is an int32 of milliseconds, stored by the
// test and loaded by sendLoop with sync/atomic ("using atomics to avoid
// race warnings").
package etcd4876

import (
	"sync"
	"time"
)

// ProgressReportInterval is how often a watch stream reports progress.
var ProgressReportInterval = 10 * time.Minute

// WatchResponse is one message on a watch stream.
type WatchResponse struct{ ProgressNotify bool }

type serverWatchStream struct {
	watchStream chan WatchResponse
	closec      chan struct{}
	wg          sync.WaitGroup
}

func (sws *serverWatchStream) sendLoop() {
	defer sws.wg.Done()
	progressTicker := time.NewTicker(ProgressReportInterval)
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
