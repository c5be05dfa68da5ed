package hardcheck

import (
	"errors"
	"fmt"
	"sync"
)

// ErrHard is the error of line 9: Foo found x still 0.
var ErrHard = errors.New("hardcheck: o.x == 0 after the critical section")

// XObject is the shared object of Figure 4.
type XObject struct {
	mu  sync.Mutex
	x   int
	log []string
}

func (o *XObject) f(i int) { o.log = append(o.log, fmt.Sprint("f", i)) }

// Foo is thread 1 of Figure 4.
func Foo(o1 *XObject) error {
	o1.mu.Lock()
	for i := 1; i <= 5; i++ {
		o1.f(i)
	}
	o1.mu.Unlock()
	if o1.x == 0 { // want "data race on XObject\\.x"
		return ErrHard
	}
	return nil
}

// Bar is thread 2 of Figure 4.
func Bar(o2 *XObject) {
	o2.x = 1
	o2.mu.Lock()
	o2.f(6)
	o2.mu.Unlock()
}
