package openjmsfixed

import (
	"sync"
	"testing"
	"time"
)

func TestInvoke(t *testing.T) {
	var c ManagedConnection
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // a client of the connection
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // the connection is set up by then
		got, err := c.Invoke("ping")
		if err != nil || got != "pong" {
			t.Errorf("Invoke = %q, %v", got, err)
		}
	}()
	c.SetInvocationHandler(func(req string) (string, error) { return "pong", nil })
	wg.Wait()
}
