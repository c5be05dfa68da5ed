package drvteardownfixed

import "testing"

func TestCache(t *testing.T) {
	c := NewCache()
	if !c.Get(1) {
		t.Fatal("Get(1) = false on a new cache")
	}
	c.Reset()
	if !c.Get(2) {
		t.Fatal("Get(2) = false after Reset")
	}
	c.Close()
	if c.Get(3) {
		t.Fatal("Get(3) = true after Close")
	}
}

func TestPolicy(t *testing.T) {
	p := newPolicy()
	if !p.Push(1) {
		t.Fatal("Push(1) = false on a new policy")
	}
	p.Clear()
	p.Close()
	if p.Push(2) {
		t.Fatal("Push(2) = true after Close")
	}
}
