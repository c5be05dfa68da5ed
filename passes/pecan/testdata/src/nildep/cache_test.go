package nildep

import "testing"

type mem map[string]int

func (m mem) Put(key string, n int) { m[key] = n }

// addAll adds the keys: the test calls Add only through it, so a driver
// finds no setup to copy and builds the Cache as its zero value, whose nil
// store its sequential calls panic on.
func addAll(c *Cache, keys ...string) {
	for _, k := range keys {
		c.Add(k)
	}
}

func TestAdd(t *testing.T) {
	m := mem{}
	c := &Cache{store: m}
	addAll(c, "a", "b")
	if m["b"] != 2 {
		t.Errorf("count %d, want 2", m["b"])
	}
}
