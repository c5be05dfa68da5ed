package lenpoll

import "runtime"

// Loader loads a value in the background.
type Loader struct {
	result string
	done   chan struct{}
}

// Start begins loading.
func Start(src string) *Loader {
	l := &Loader{done: make(chan struct{}, 1)}
	go func() {
		s := ""
		for i := 0; i < 3; i++ {
			s += src
		}
		l.result = s // want "data race on Loader\\.result"
		l.done <- struct{}{}
	}()
	return l
}

// Wait returns the loaded value.
func (l *Loader) Wait() string {
	for len(l.done) == 0 { // the bug: len does not synchronize
		runtime.Gosched()
	}
	return l.result
}
