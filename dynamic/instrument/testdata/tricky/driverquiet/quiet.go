// Package driverquiet holds a generated driver's pecanvetQuiet stub, whose
// body the instrumenter replaces with the runtime's DriverQuiet.
package driverquiet

// Sem is a semaphore of one: a second Acquire waits for a Release.
type Sem struct{ c chan struct{} }

func New() *Sem { return &Sem{c: make(chan struct{}, 1)} }

func (s *Sem) Acquire() { s.c <- struct{}{} }

func (s *Sem) Release() { <-s.c }
