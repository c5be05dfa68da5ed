package pool

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

type conn struct {
	from   string
	active bool
}

type dialer struct{ name string }

func (d dialer) Make() (*conn, error) { return &conn{from: d.name}, nil }

func (d dialer) Activate(c *conn) error {
	if c.from != d.name {
		return fmt.Errorf("%s cannot activate a connection of %s", d.name, c.from)
	}
	c.active = true
	return nil
}

// later runs f in a goroutine after a short delay and returns a wait func.
func later(f func()) (wait func()) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		f()
	}()
	return wg.Wait
}

func TestBorrowThenClose(t *testing.T) {
	p := New[*conn](dialer{"db1"})
	wait := later(p.Close)
	c, err := p.Borrow()
	wait()
	if err != nil || !c.active {
		t.Fatalf("Borrow = %+v, %v", c, err)
	}
	p.Return(c)
	if _, err := p.Borrow(); err != ErrClosed {
		t.Errorf("Borrow after Close: %v, want ErrClosed", err)
	}
}

func TestBorrowThenSetFactory(t *testing.T) {
	p := New[*conn](dialer{"db1"})
	wait := later(func() { p.SetFactory(dialer{"db2"}) })
	c, err := p.Borrow()
	wait()
	if err != nil || !c.active || c.from != "db1" {
		t.Fatalf("Borrow = %+v, %v", c, err)
	}
}
