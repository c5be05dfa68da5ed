package replystate

import (
	"sync"
	"testing"
)

// TestWrite: two handlers answer one request at once; one of them writes
// the reply.
func TestWrite(t *testing.T) {
	c := &Reply{}
	var wg sync.WaitGroup
	for _, s := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Write(s)
		}()
	}
	wg.Wait()
	if len(c.Body()) != 1 {
		t.Errorf("body %q, want one", c.Body())
	}
}
