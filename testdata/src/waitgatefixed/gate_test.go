package waitgatefixed

import (
	"testing"
	"time"
)

// TestTwoUsers: two users 5 ms apart; once both left, the buffer is
// freed.
func TestTwoUsers(t *testing.T) {
	g := &Gate{}
	done := make(chan struct{})
	go func() {
		time.Sleep(5 * time.Millisecond)
		g.Enter()
		g.Use(2)
		g.Leave()
		close(done)
	}()
	g.Enter()
	g.Use(1)
	g.Leave()
	<-done
	if !g.Freed() {
		t.Error("buffer kept after every user left")
	}
}
