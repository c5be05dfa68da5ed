package drvctor

import "testing"

func TestBadSize(t *testing.T) {
	if _, err := NewPool(-1); err == nil {
		t.Fatal("no error")
	}
}

func TestName(t *testing.T) {
	name := "pool"
	p, err := NewPool(2, WithName(name))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != name {
		t.Fatal(p.Name())
	}
}

func TestSubscribe(t *testing.T) {
	b := New()
	n := 0
	b.Subscribe("a", func() { n++ })
	b.Publish("a")
	if n != 1 {
		t.Fatal(n)
	}
}
