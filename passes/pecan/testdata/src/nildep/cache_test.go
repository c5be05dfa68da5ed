package nildep

import "testing"

type mem map[string]int

func (m mem) Put(key string, n int) { m[key] = n }

func TestAdd(t *testing.T) {
	m := mem{}
	c := &Cache{store: m}
	c.Add("a")
	c.Add("b")
	if m["b"] != 2 {
		t.Errorf("count %d, want 2", m["b"])
	}
}
