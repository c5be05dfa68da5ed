// Package grpc1460 reduces grpc/grpc-go#1460
// (https://github.com/grpc/grpc-go/pull/1460, transport: fix a deadlock
// in the client's keepalive).
//
// With keepalives on and no active stream, the keepalive goroutine takes
// t.mu, drains the token from awakenKeepalive (a channel of capacity one
// that is kept full except while keepalive waits to be woken), releases
// t.mu and waits on awakenKeepalive. NewStream, under t.mu, wakes it when
// the first stream becomes active by a non-blocking send of the token.
// After that wake the channel stays empty: if the stream ends and the
// keepalive timer fires before the next NewStream (or Close), keepalive
// takes t.mu and blocks draining the empty channel with t.mu held, and
// NewStream and Close block on t.mu for ever. Deadlock.
//
// Upstream fix: NewStream fills awakenKeepalive again after its send
// ("this channel must be kept non-writable except at the point that the
// keepalive() goroutine is waiting either to be awaken or shutdown").
package grpc1460

import (
	"sync"
	"time"
)

const keepaliveTime = 50 * time.Millisecond

// Stream is one RPC.
type Stream struct{ id int }

type http2Client struct {
	mu              sync.Mutex
	activeStreams   map[int]*Stream
	nextID          int
	awakenKeepalive chan struct{}
	done            chan struct{}
	closed          bool
	pings           int
}

func newHTTP2Client() *http2Client {
	t := &http2Client{
		activeStreams:   map[int]*Stream{},
		awakenKeepalive: make(chan struct{}, 1),
		done:            make(chan struct{}),
	}
	// Not writable until keepalive waits to be woken.
	t.awakenKeepalive <- struct{}{}
	return t
}

func (t *http2Client) keepalive() {
	for {
		t.mu.Lock()
		if len(t.activeStreams) < 1 {
			<-t.awakenKeepalive // make awakenKeepalive writable
			t.mu.Unlock()
			select {
			case <-t.awakenKeepalive: // NewStream sent a ping
			case <-t.done:
				return
			}
		} else {
			t.mu.Unlock()
		}
		select {
		case <-time.After(keepaliveTime):
		case <-t.done:
			return
		}
	}
}

func (t *http2Client) NewStream() *Stream {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.nextID++
	s := &Stream{id: t.nextID}
	t.activeStreams[s.id] = s
	if len(t.activeStreams) == 1 {
		select {
		case t.awakenKeepalive <- struct{}{}:
			t.pings++ // a ping wakes the peer's keepalive too
		default:
		}
	}
	return s
}

func (t *http2Client) CloseStream(s *Stream) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.activeStreams, s.id)
}

func (t *http2Client) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	t.closed = true
	close(t.done)
}
