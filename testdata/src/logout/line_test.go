package logout

import (
	"bufio"
	"net"
	"testing"
	"time"
)

// TestShutdown closes a live line, as a server's shutdown closes every
// connection, and the line's own goroutine closes it when its read
// fails: the session must be logged out once.
func TestShutdown(t *testing.T) {
	server, client := net.Pipe()
	srv, l, s := &Server{}, &Line{conn: server}, &Session{}
	done := make(chan struct{})
	go func() {
		srv.Serve(l, s)
		close(done)
	}()
	if _, err := bufio.NewReader(client).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	l.Close()
	<-done
	if n := s.Logouts(); n != 1 {
		t.Errorf("session logged out %d times, want 1", n)
	}
}

// TestQuit closes the line 5 ms after its client quit, as a server's
// shutdown may close a connection whose goroutine is closing it: the
// session must be logged out once.
func TestQuit(t *testing.T) {
	server, client := net.Pipe()
	srv, l, s := &Server{}, &Line{conn: server}, &Session{}
	done := make(chan struct{})
	go func() {
		srv.Serve(l, s)
		close(done)
	}()
	if _, err := bufio.NewReader(client).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	client.Write([]byte("quit\n"))
	time.Sleep(5 * time.Millisecond)
	l.Close()
	<-done
	if n := s.Logouts(); n != 1 {
		t.Errorf("session logged out %d times, want 1", n)
	}
}
