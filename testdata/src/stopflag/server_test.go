package stopflag

import (
	"net"
	"sync"
	"testing"
)

func TestServeShutdown(t *testing.T) {
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	defer conn.Close()
	// As dns's RunLocalServer: a lock held until Serve has started.
	var started sync.Mutex
	started.Lock()
	s := New(conn, started.Unlock)
	errc := make(chan error, 1)
	go func() { errc <- s.Serve() }()
	started.Lock()
	if err := s.Shutdown(); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err != nil {
		t.Errorf("Serve = %v after Shutdown, want nil", err)
	}
}
