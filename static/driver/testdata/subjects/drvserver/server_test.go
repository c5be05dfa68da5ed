package drvserver

import "testing"

func TestClient(t *testing.T) {
	srv := NewServer("localhost:5502")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	c := &Client{}
	c.SetEncoding(1)
	if got := c.Read(); got != 1 {
		t.Errorf("Read = %d, want 1", got)
	}
	srv.Stop()
}
