package loader

import (
	"sync"
	"testing"
	"time"
)

func fetch(name string) []byte { return []byte("module " + name) }

func TestLoadAll(t *testing.T) {
	l := New("core", "net", "ui")
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 3 * time.Millisecond) // staggered start
			l.Load(i, fetch)
		}()
	}
	wg.Wait()
	select {
	case <-l.Done():
	default:
		t.Fatal("loading never completed")
	}
	for i, name := range []string{"core", "net", "ui"} {
		if got := string(l.Data(i)); got != "module "+name {
			t.Errorf("data[%d] = %q", i, got)
		}
	}
}
