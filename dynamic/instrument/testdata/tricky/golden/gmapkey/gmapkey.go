// Package gmapkey touches elements of a shared map by key: each element
// access is recorded on the map with its key's hash (key=N), an access of
// the whole map without one.
package gmapkey

// Keys runs the accesses in a goroutine; m is shared with the caller.
func Keys(m map[string]int, k string) (int, bool) {
	done := make(chan bool)
	go func() {
		m["a"] = 1      // a constant key: write key=h("a")
		m[k] += 2       // a local key: read and write, key=h(k)
		v, ok := m["a"] // comma-ok: read key=h("a")
		_, _ = v, ok
		m[suffix(k)] = 3 // a call's key, held in a temporary: keyed
		_ = m[suffix(k)] // a call's key in an expression: the whole map
		delete(m, k)     // write key=h(k)
		n := len(m)      // the whole map
		_ = n
		clear(m) // the whole map
		done <- true
	}()
	<-done
	return m["a"], len(m) == 0
}

func suffix(s string) string { return s + "!" }
