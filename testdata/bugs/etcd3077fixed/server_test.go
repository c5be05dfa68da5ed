package etcd3077fixed

import (
	"testing"
	"time"
)

func TestStartStop(t *testing.T) {
	srv := &EtcdServer{}
	srv.start()
	time.Sleep(20 * time.Millisecond) // the server serves a while
	srv.Stop()
	if srv.r.ticks == 0 {
		t.Errorf("the raft node never ticked")
	}
}
