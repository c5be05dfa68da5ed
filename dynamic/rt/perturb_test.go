package rt

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// TestPerturbInBubble: a perturbation delay inside a synctest bubble,
// taken while another goroutine of the bubble waits for a mutex the
// delayed one holds, does not hang the bubble (a sleep would: fake time
// advances only when every goroutine is durably blocked, and one waiting
// for a mutex is not).
func TestPerturbInBubble(t *testing.T) {
	done := make(chan bool)
	go func() {
		synctest.Test(t, func(t *testing.T) {
			var mu sync.Mutex
			mu.Lock()
			go func() {
				mu.Lock() // waits for the delayed goroutine
				mu.Unlock()
			}()
			for i := uint64(0); i < 64; i++ {
				perturbDelay(i, 3, trace.Send) // some of them delay
			}
			mu.Unlock()
		})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the bubble hung")
	}
}
