// Package casbefore holds anthdm/hollywood v1.0.5's Inbox states for
// depend's failedAsBefore and check's beforeUnits: a Send's CAS from
// idle to running, Start's CAS from stopped to starting and its swap to
// idle, Stop's store of stopped, and a Wake CAS from stopped, which the
// value before Start lets swap; a Bump that adds, whose value is no
// constant.
package casbefore

import "sync/atomic"

const (
	stopped int32 = iota
	starting
	idle
	running
)

type Inbox struct{ status int32 }

func (in *Inbox) schedule() {
	if atomic.CompareAndSwapInt32(&in.status, idle, running) {
		go in.process()
	}
}

func (in *Inbox) process() {}

func (in *Inbox) Start() {
	if atomic.CompareAndSwapInt32(&in.status, stopped, starting) {
		atomic.SwapInt32(&in.status, idle)
		in.schedule()
	}
}

func (in *Inbox) Stop() { atomic.StoreInt32(&in.status, stopped) }

func (in *Inbox) Wake() {
	if atomic.CompareAndSwapInt32(&in.status, stopped, idle) {
		go in.process()
	}
}

func (in *Inbox) Bump() { atomic.AddInt32(&in.status, 1) }
