package initwrite

import "testing"

func TestServe(t *testing.T) {
	s := NewServer()
	var err error
	done := make(chan struct{})
	Start(s, &err, done)
	s.Stop()
	if err != nil { // the server's goroutine may be storing Serve's result
		t.Fatal(err)
	}
	<-done
}
