package drvonclose

import (
	"testing"
	"time"
)

func TestExpire(t *testing.T) {
	s := Open(time.Millisecond)
	select {
	case <-s.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the session did not expire")
	}
}

func TestClose(t *testing.T) {
	s := Open(time.Millisecond)
	s.Close()
	<-s.Done()
}
