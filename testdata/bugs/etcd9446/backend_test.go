package etcd9446

import (
	"sync"
	"testing"
	"time"
)

func TestDefragInflightRange(t *testing.T) {
	b := &backend{readTx: &readTx{buf: txBuffer{buckets: map[string]string{"foo": "bar"}}}}
	var wg sync.WaitGroup
	wg.Add(1)
	var got string
	go func() {
		defer wg.Done()
		got, _ = b.Range("foo")
	}()
	time.Sleep(20 * time.Millisecond) // defragment after the read
	b.defrag()
	wg.Wait()
	if got != "bar" {
		t.Errorf("Range = %q, want bar", got)
	}
}
