package initwritefixed

import "testing"

func TestServe(t *testing.T) {
	s := NewServer()
	var err error
	done := make(chan struct{})
	Start(s, &err, done)
	if err != nil { // before Stop: Serve has not returned
		t.Fatal(err)
	}
	s.Stop()
	<-done
	if err != nil {
		t.Fatal(err)
	}
}
