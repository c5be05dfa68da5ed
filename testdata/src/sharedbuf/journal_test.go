package sharedbuf

import (
	"sync"
	"testing"
	"time"
)

func TestJournal(t *testing.T) {
	var j Journal
	var wg sync.WaitGroup
	for i, line := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(1+4*i) * time.Millisecond) // one after the other
			j.Add(line)
		}()
	}
	wg.Wait()
	if got := j.Lines(); len(got) != 2 {
		t.Errorf("journal %q, want 2 lines", got)
	}
}
