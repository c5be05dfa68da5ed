package moby4951fixed

import (
	"sync"
	"testing"
	"time"
)

func TestDeleteDeviceTwice(t *testing.T) {
	devices := NewDeviceSet("info1")
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		devices.DeleteDevice("info1")
	}()
	go func() {
		defer wg.Done()
		time.Sleep(20 * time.Millisecond) // a retry, well after the first delete
		devices.DeleteDevice("info1")
	}()
	wg.Wait()
	if n := devices.Removed(); n != 1 {
		t.Errorf("removed %d devices, want 1", n)
	}
}
