package stringbuffer

import (
	"sync"
	"testing"
	"time"
)

func TestAppendThenReset(t *testing.T) {
	greeting := New("hello ")
	name := New("world")

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // reuse the name buffer afterwards
		name.SetLength(0)
	}()
	greeting.Append(name)
	wg.Wait()

	if got := greeting.String(); got != "hello world" {
		t.Errorf("greeting = %q, want %q", got, "hello world")
	}
	if got := name.Len(); got != 0 {
		t.Errorf("name has %d bytes after SetLength(0)", got)
	}
}
