package selectsend

import (
	"testing"
	"time"
)

func TestDispatch(t *testing.T) {
	d := New()
	go func() { // the worker takes both jobs from the fast lane
		<-d.fast
		<-d.fast
	}()
	done := make(chan bool, 2)
	go func() {
		d.Dispatch(1)
		done <- true
	}()
	go func() {
		time.Sleep(5 * time.Millisecond)
		d.Dispatch(2)
		done <- true
	}()
	<-done
	<-done
	if n := d.Sent(); n != 2 {
		t.Errorf("sent = %d, want 2", n)
	}
}
