package etcd4876fixed

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestWatchWithProgressNotify(t *testing.T) {
	ws := &watchServer{}
	var other *serverWatchStream
	started := make(chan struct{})
	go func() {
		other = ws.Watch() // a watch another client of the cluster opened
		close(started)
	}()
	time.Sleep(20 * time.Millisecond) // the test starts later
	// accelerate report interval so the test terminates quickly
	// using atomics to avoid race warnings
	oldpi := atomic.LoadInt32(&ProgressReportIntervalMilliseconds)
	atomic.StoreInt32(&ProgressReportIntervalMilliseconds, 3)
	defer atomic.StoreInt32(&ProgressReportIntervalMilliseconds, oldpi)

	sws := ws.Watch()
	select {
	case resp := <-sws.watchStream:
		if !resp.ProgressNotify {
			t.Errorf("got %+v, want a progress notification", resp)
		}
	case <-time.After(time.Second):
		t.Error("no progress notification")
	}
	sws.close()
	<-started
	other.close()
}
