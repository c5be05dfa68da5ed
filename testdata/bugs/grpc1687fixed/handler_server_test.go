package grpc1687fixed

import (
	"testing"
	"time"
)

func TestWriteThenWriteStatus(t *testing.T) {
	ht := newHandlerTransport()
	done := make(chan struct{})
	go func() {
		ht.runStream()
		close(done)
	}()
	go ht.Write("hello") // a concurrent SendMsg
	time.Sleep(20 * time.Millisecond)
	ht.WriteStatus("OK")
	ht.Close()
	<-done
	if len(ht.written) == 0 || ht.written[len(ht.written)-1] != "status:OK" {
		t.Errorf("written = %q, want the status last", ht.written)
	}
}
