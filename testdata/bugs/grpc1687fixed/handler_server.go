// Package grpc1687fixed is grpc1687 with the upstream fix of
// https://github.com/grpc/grpc-go/pull/1687: WriteStatus closes the
// transport (closedCh, once) instead of closing ht.writes.
package grpc1687fixed

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
	ht.Close()
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
