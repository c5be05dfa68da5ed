package istio16224

import (
	"sync"
	"testing"
)

func TestEventConsistency(t *testing.T) {
	controller := &controller{monitor: newMonitor()}
	testConfig := Config{Name: "reviews"}
	var gotEvent Event
	done := make(chan bool)
	lock := sync.Mutex{}
	controller.RegisterEventHandler(func(config Config, event Event) {
		lock.Lock()
		defer lock.Unlock()
		gotEvent = event
		done <- true
	})

	stop := make(chan struct{})
	go controller.Run(stop)

	rev := controller.Create(testConfig)
	lock.Lock()
	testConfig.ResourceVersion = rev
	lock.Unlock()
	<-done

	lock.Lock()
	if gotEvent != EventAdd {
		t.Errorf("event = %v, want %v", gotEvent, EventAdd)
	}
	lock.Unlock()
	close(stop)
}
