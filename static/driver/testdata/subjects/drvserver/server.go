// Package drvserver has a client whose tests talk to a server they start
// and stop (simonvetter/modbus's TCP server and client). A driver of the
// client's methods copies the test's setup, which starts the server on
// its fixed address: unless the driver stops it too, as the test does
// after its calls, the next recording's or replay's setup cannot listen
// and every driver of the client fails before its calls.
package drvserver

import (
	"errors"
	"sync"
)

// listening stands for the operating system's table of bound ports.
var listening = struct {
	sync.Mutex
	addrs map[string]bool
}{addrs: map[string]bool{}}

// Server serves registers on addr.
type Server struct{ addr string }

// NewServer makes a server for addr.
func NewServer(addr string) *Server { return &Server{addr: addr} }

// Start binds the server's address.
func (s *Server) Start() error {
	listening.Lock()
	defer listening.Unlock()
	if listening.addrs[s.addr] {
		return errors.New("listen " + s.addr + ": bind: address already in use")
	}
	listening.addrs[s.addr] = true
	return nil
}

// Stop frees the address.
func (s *Server) Stop() error {
	listening.Lock()
	defer listening.Unlock()
	delete(listening.addrs, s.addr)
	return nil
}

// Client reads registers.
type Client struct {
	mu     sync.Mutex
	endian int
}

// SetEncoding sets how the client decodes registers.
func (c *Client) SetEncoding(e int) {
	c.mu.Lock()
	c.endian = e
	c.mu.Unlock()
}

// Read decodes a register: it reads the encoding outside the lock
// (modbus's readRegisters, client.go:417).
func (c *Client) Read() int {
	e := c.endian
	c.mu.Lock()
	defer c.mu.Unlock()
	return e
}
