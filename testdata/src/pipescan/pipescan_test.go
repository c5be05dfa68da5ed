package pipescan

import (
	"testing"
	"time"
)

// TestPipedLines is logrus's TestWriterSplitNewlines: the pipe's Close
// does not wait for the scanning goroutine, so the test sleeps before it
// counts.
func TestPipedLines(t *testing.T) {
	l := &Log{}
	w := l.Writer()
	for range 5 {
		if _, err := w.Write([]byte("bar\nfoo\n")); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	time.Sleep(100 * time.Millisecond)
	if n := l.Len(); n != 10 {
		t.Errorf("%d lines, want 10", n)
	}
}

func TestDirectAndPiped(t *testing.T) {
	l := &Log{}
	w := l.Writer()
	added := make(chan struct{})
	go func() {
		defer close(added)
		l.Add("direct")
	}()
	if _, err := w.Write([]byte("piped\n")); err != nil {
		t.Fatal(err)
	}
	w.Close()
	<-added
	<-l.Done()
	if n := l.Len(); n != 2 {
		t.Errorf("%d lines, want 2: a line was overwritten", n)
	}
}
