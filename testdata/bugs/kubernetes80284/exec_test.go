package kubernetes80284

import (
	"sync"
	"testing"
	"time"
)

func TestTwoClientsOneAuthenticator(t *testing.T) {
	a := newAuthenticator()
	a.refreshCreds("token1")
	var wg sync.WaitGroup
	configs := make([]*Config, 2)
	for i := range configs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 20 * time.Millisecond) // the second client is made later
			configs[i] = &Config{}
			a.UpdateTransportConfig(configs[i])
			configs[i].Dial()
		}()
	}
	wg.Wait()
	for i, c := range configs {
		if c.Dial == nil {
			t.Errorf("client %d has no dialer", i)
		}
	}
	a.refreshCreds("token2") // rotation closes the last client's connections
}
