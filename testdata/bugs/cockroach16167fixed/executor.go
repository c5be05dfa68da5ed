// Package cockroach16167fixed is cockroach16167 with the upstream fix of
// https://github.com/cockroachdb/cockroach/pull/16167: systemConfigMu is a
// sync.Mutex (the Cond's L) and databaseCache an atomic.Value, which
// getDatabaseCache reads without taking the lock.
package cockroach16167fixed

import (
	"sync"
	"sync/atomic"
	"time"
)

type databaseCache struct{ version int }

// PreparedStatements are a session's prepared statements.
type PreparedStatements struct {
	session *Session
	n       int
}

func (ps *PreparedStatements) New(e *Executor) {
	e.Prepare(ps.session)
	ps.n++
}

// Session is a SQL session.
type Session struct {
	PreparedStatements PreparedStatements
	cacheVersion       int
}

func (s *Session) resetForBatch(e *Executor) {
	s.cacheVersion = e.getDatabaseCache().version
}

// Executor executes SQL statements.
type Executor struct {
	systemConfigMu   sync.Mutex
	systemConfigCond *sync.Cond
	systemConfig     int
	databaseCache    atomic.Value // *databaseCache
}

func newExecutorAndSession() (*Executor, *Session) {
	s := &Session{}
	s.PreparedStatements.session = s
	e := &Executor{}
	e.databaseCache.Store(&databaseCache{})
	e.systemConfigCond = sync.NewCond(&e.systemConfigMu)
	return e, s
}

// Start applies the system config that gossip delivers.
func (e *Executor) Start(cfg int) { e.updateSystemConfig(cfg) }

func (e *Executor) updateSystemConfig(cfg int) {
	e.systemConfigMu.Lock()
	defer e.systemConfigMu.Unlock()
	e.systemConfig = cfg
	e.databaseCache.Store(&databaseCache{version: cfg})
	e.systemConfigCond.Broadcast()
}

func (e *Executor) execParsed(session *Session) {
	e.systemConfigCond.L.Lock() // systemConfigMu.Lock()
	defer e.systemConfigCond.L.Unlock()
	time.Sleep(time.Millisecond) // parsing and planning, under the lock
	runTxnAttempt(e, session)
}

func runTxnAttempt(e *Executor, session *Session) { e.execStmtsInCurrentTxn(session) }

func (e *Executor) execStmtsInCurrentTxn(session *Session) { e.execStmtInOpenTxn(session) }

func (e *Executor) execStmtInOpenTxn(session *Session) { session.PreparedStatements.New(e) }

func (e *Executor) Prepare(session *Session) { session.resetForBatch(e) }

func (e *Executor) getDatabaseCache() *databaseCache {
	return e.databaseCache.Load().(*databaseCache)
}
