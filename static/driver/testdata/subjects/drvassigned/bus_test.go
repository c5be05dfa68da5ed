package drvassigned

import "testing"

func TestPublish(t *testing.T) {
	b := &Bus{}
	var fired int
	count := 0
	b.Subscribe(func(v int) {
		fired = v
		count++
	})
	b.Publish(1)
	if fired != 1 || count != 1 {
		t.Fatalf("fired %d, %d times", fired, count)
	}
}
