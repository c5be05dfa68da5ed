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

// TestInversionSites: a read decides a path that takes another mutex
// while one is held: in the condition of an if whose branch takes it,
// or whose body returns before the statements that take it, and in the
// assignment just before such an if whose variable the condition uses
// (moby#4951's lookup). Not: the same mutex again (a relock site), an
// if whose body does not leave (the lock comes on both paths), no lock
// held, an assignment the condition does not use.
func TestInversionSites(t *testing.T) {
	dir := t.TempDir()
	src := `package p

import "sync"

type D struct{ lock sync.Mutex }

type S struct {
	sync.Mutex
	m map[string]*D
}

func (s *S) Delete(k string) {
	s.Lock()
	defer s.Unlock()
	d := s.m[k] // 15
	if d == nil { // 16
		return
	}
	d.lock.Lock()
	defer d.lock.Unlock()
}

func (s *S) Touch(k string) {
	s.Lock()
	defer s.Unlock()
	d := s.m[k] // 26: not used by the condition
	if len(s.m) == 0 { // 27: the body does not leave
		d = nil
	}
	if d != nil { // 30: a branch that takes d.lock
		d.lock.Lock()
		d.lock.Unlock()
	}
	if d == nil { // 34: the same mutex again (relock)
		s.Lock()
	}
	if d != nil { // 37: neither (Drop releases before it locks)
		s.Drop()
	}
}

// Drop releases s's lock around a wait and takes it again: a caller
// holding it does not wait for itself.
func (s *S) Drop() {
	s.Unlock()
	s.Lock()
}

func (s *S) Unlocked(k string) {
	d := s.m[k] // 50: no lock held
	if d == nil {
		return
	}
	d.lock.Lock()
	d.lock.Unlock()
}
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &relockSites{dir: dir}
	want := map[int]bool{15: true, 16: true, 30: true}
	for line := 1; line <= 56; line++ {
		site := filepath.Join(dir, "p.go") + ":" + strconv.Itoa(line) + ":5"
		if s.at(site) != (line == 34) {
			t.Errorf("line %d: relock site %v, want %v", line, s.at(site), line == 34)
		}
		if got := s.invAt(site); got != want[line] {
			t.Errorf("line %d: inversion site %v, want %v", line, got, want[line])
		}
	}
}
