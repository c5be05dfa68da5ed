package ctxdrain

// Feed hands published events to one reader.
type Feed struct {
	ch chan string
}

// NewFeed returns a Feed that holds up to 8 unread events.
func NewFeed() *Feed { return &Feed{ch: make(chan string, 8)} }

// Publish hands e to the reader, or drops it when 8 are unread.
func (f *Feed) Publish(e string) {
	select {
	case f.ch <- e:
	default:
	}
}

// Events is the reader's channel.
func (f *Feed) Events() <-chan string { return f.ch }
