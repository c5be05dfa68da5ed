package bufwriter

import (
	"bytes"
	"sync"
	"testing"
	"time"
)

func TestFlusher(t *testing.T) {
	var out bytes.Buffer
	w := New(&out, 16)

	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the periodic flusher
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		if err := w.Flush(); err != nil {
			t.Error(err)
		}
	}()
	w.Write([]byte("abc"))
	w.Write([]byte("def"))
	wg.Wait()
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}

	if got := out.String(); got != "abcdef" {
		t.Errorf("wrote %q, want %q", got, "abcdef")
	}
}
