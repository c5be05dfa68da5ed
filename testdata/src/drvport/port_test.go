package drvport

import "testing"

func TestSocketIsntListeningAfterInterrupt(t *testing.T) {
	addr := "127.0.0.1:9090"
	socket := NewSocket(addr)
	socket.Open()
	socket.Interrupt()

	newSocket := NewSocket(addr)
	err := newSocket.Open()
	defer newSocket.Interrupt()
	if err != nil {
		t.Fatalf("failed to rebind: %v", err)
	}
}
