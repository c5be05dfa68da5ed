package tokenbucket

import "sync/atomic"

// Session receives frames while its token bucket holds tokens; readers
// return a frame's tokens once they have consumed it.
type Session struct {
	bucket int32
	notify chan struct{}
	done   chan struct{}
	stalls int // frames whose take emptied the bucket; the receiver's own
}

// NewSession returns a session whose bucket holds tokens.
func NewSession(tokens int32) *Session {
	return &Session{bucket: tokens, notify: make(chan struct{}, 1), done: make(chan struct{})}
}

// Recv takes each frame's length from the bucket, waiting at the top
// of each round while the bucket is empty, until frames is closed.
func (s *Session) Recv(frames <-chan int32) {
	defer close(s.done)
	for {
		for atomic.LoadInt32(&s.bucket) <= 0 {
			<-s.notify
		}
		n, ok := <-frames
		if !ok {
			return
		}
		atomic.AddInt32(&s.bucket, -n) // want "atomicity violation on Session\\.bucket"
		if atomic.LoadInt32(&s.bucket) <= 0 {
			s.stalls++
		}
	}
}

// Return gives n tokens back and wakes the receiver if it waits.
func (s *Session) Return(n int32) {
	if atomic.AddInt32(&s.bucket, n) > 0 {
		select {
		case s.notify <- struct{}{}:
		default:
		}
	}
}

// Stalls is how many frames emptied the bucket, once Recv has returned.
func (s *Session) Stalls() int {
	<-s.done
	return s.stalls
}
