package wakeretryfixed

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestWriterAfterReaders: a reader holds the lock while a writer waits;
// the reader releases it, and a second reader comes later. The writer
// must never hold the lock beside a reader.
func TestWriterAfterReaders(t *testing.T) {
	m := New()
	var readers int32
	var wg sync.WaitGroup
	m.RLock()
	atomic.AddInt32(&readers, 1)
	wg.Add(2)
	go func() {
		defer wg.Done()
		m.Lock()
		if n := atomic.LoadInt32(&readers); n != 0 {
			t.Errorf("writer holds the lock beside %d readers", n)
		}
		m.Unlock()
	}()
	go func() {
		defer wg.Done()
		time.Sleep(10 * time.Millisecond)
		m.RLock()
		atomic.AddInt32(&readers, 1)
		atomic.AddInt32(&readers, -1)
		m.RUnlock()
	}()
	time.Sleep(5 * time.Millisecond)
	atomic.AddInt32(&readers, -1)
	m.RUnlock()
	wg.Wait()
}
