// Package grpc1687 reduces grpc/grpc-go#1687
// (https://github.com/grpc/grpc-go/pull/1687, transport: fix race sending
// RPC status that could lead to a panic; etcd's
// https://github.com/etcd-io/etcd/issues/8904).
//
// The HTTP handler transport funnels writes through ht.writes, served by
// runStream. WriteStatus, the last write of a stream, sends its write and
// then closes ht.writes. A Write from another goroutine of the same stream
// that checks closedCh, finds it open and then sends on ht.writes after
// WriteStatus closed it panics: send on closed channel.
//
// Upstream fix: WriteStatus no longer closes ht.writes; it closes the
// transport (closedCh, once), and runStream and do return on closedCh.
package grpc1687

import "sync"

type serverHandlerTransport struct {
	closedCh  chan struct{}
	closeOnce sync.Once
	writes    chan func()
	written   []string
}

func newHandlerTransport() *serverHandlerTransport {
	return &serverHandlerTransport{closedCh: make(chan struct{}), writes: make(chan func())}
}

func (ht *serverHandlerTransport) do(fn func()) {
	select {
	case <-ht.closedCh:
		return
	default:
		select {
		case ht.writes <- fn:
		case <-ht.closedCh:
		}
	}
}

func (ht *serverHandlerTransport) Close() {
	ht.closeOnce.Do(func() { close(ht.closedCh) })
}

// WriteStatus writes the stream's status, its last write.
func (ht *serverHandlerTransport) WriteStatus(status string) {
	ht.do(func() { ht.written = append(ht.written, "status:"+status) })
	close(ht.writes)
}

// Write writes a message.
func (ht *serverHandlerTransport) Write(msg string) {
	ht.do(func() { ht.written = append(ht.written, msg) })
}

func (ht *serverHandlerTransport) runStream() {
	for {
		select {
		case fn, ok := <-ht.writes:
			if !ok {
				return
			}
			fn()
		case <-ht.closedCh:
			return
		}
	}
}
