// Package grpc1460fixed is grpc1460 with the upstream fix of
// https://github.com/grpc/grpc-go/pull/1460: NewStream fills
// awakenKeepalive again after waking keepalive, so keepalive never drains
// an empty channel with t.mu held.
package grpc1460fixed

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
			// Fill the channel again: it must stay non-writable except
			// while keepalive waits to be woken or for shutdown.
			t.awakenKeepalive <- struct{}{}
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
