package check

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestRelockSites: the condition of an if whose branch locks again a
// mutex held there is a relock site, through a method of the receiver
// and a function of the package; a branch after the unlock, a read lock
// behind a read lock, another mutex and a lock in a go statement are not.
func TestRelockSites(t *testing.T) {
	dir := t.TempDir()
	src := `package p

import "sync"

type C struct {
	mu, other sync.RWMutex
	stale     bool
}

func (c *C) Get() {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.stale { // 13: refresh takes c.mu.Lock
		c.refresh()
	}
	if c.stale { // 16: a read lock behind a read lock
		c.peek()
	}
	if c.stale { // 19: another mutex
		c.other.Lock()
		c.other.Unlock()
	}
	if c.stale { // 23: in another goroutine
		go c.refresh()
	}
}

func (c *C) refresh() { c.mu.Lock(); c.stale = false; c.mu.Unlock() }
func (c *C) peek()    { c.mu.RLock(); c.mu.RUnlock() }

func (c *C) Put() {
	c.mu.Lock()
	if c.stale { // 33: peek takes c.mu.RLock
		c.peek()
	}
	c.mu.Unlock()
	if c.stale { // 37: after the unlock
		c.refresh()
	}
}

var mu sync.Mutex

func lockAll() { mu.Lock(); mu.Unlock() }

func f(x bool) {
	mu.Lock()
	defer mu.Unlock()
	if x || // 49
		!x { // 50: a package function
		lockAll()
	}
}
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &relockSites{dir: dir}
	want := map[int]bool{13: true, 33: true, 49: true, 50: true}
	for line := 1; line <= 55; line++ {
		site := filepath.Join(dir, "p.go") + ":" + strconv.Itoa(line) + ":5"
		if got := s.at(site); got != want[line] {
			t.Errorf("line %d: relock site %v, want %v", line, got, want[line])
		}
	}
	if !s.at("p.go:13") {
		t.Errorf("a site relative to the package's directory is not found")
	}
}
