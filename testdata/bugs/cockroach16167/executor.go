// Package cockroach16167 reduces cockroachdb/cockroach#16167
// (https://github.com/cockroachdb/cockroach/pull/16167, sql: avoid
// recursive acquisition of Executor.systemConfigMu).
//
// Executor.systemConfigCond's locker is systemConfigMu.RLocker():
// execParsed read-locks systemConfigMu through the Cond's L and, deep in
// the statement's execution (runTxnAttempt ... Prepare, resetForBatch),
// getDatabaseCache read-locks it again. sync.RWMutex cannot be read-locked
// recursively: if the gossip update's updateSystemConfig calls Lock
// between the two, the writer waits for the first read lock and the
// second RLock waits behind the writer. Deadlock.
//
// Upstream fix: systemConfigMu becomes a sync.Mutex (the Cond's L) and
// databaseCache an atomic.Value, read by getDatabaseCache without the
// lock.
package cockroach16167

import (
	"sync"
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
	systemConfigMu   sync.RWMutex
	systemConfigCond *sync.Cond
	systemConfig     int
	databaseCache    *databaseCache
}

func newExecutorAndSession() (*Executor, *Session) {
	s := &Session{}
	s.PreparedStatements.session = s
	e := &Executor{databaseCache: &databaseCache{}}
	e.systemConfigCond = sync.NewCond(e.systemConfigMu.RLocker())
	return e, s
}

// Start applies the system config that gossip delivers.
func (e *Executor) Start(cfg int) { e.updateSystemConfig(cfg) }

func (e *Executor) updateSystemConfig(cfg int) {
	e.systemConfigMu.Lock()
	defer e.systemConfigMu.Unlock()
	e.systemConfig = cfg
	e.databaseCache = &databaseCache{version: cfg}
	e.systemConfigCond.Broadcast()
}

func (e *Executor) execParsed(session *Session) {
	e.systemConfigCond.L.Lock() // systemConfigMu.RLock()
	defer e.systemConfigCond.L.Unlock()
	time.Sleep(time.Millisecond) // parsing and planning, under the read lock
	runTxnAttempt(e, session)
}

func runTxnAttempt(e *Executor, session *Session) { e.execStmtsInCurrentTxn(session) }

func (e *Executor) execStmtsInCurrentTxn(session *Session) { e.execStmtInOpenTxn(session) }

func (e *Executor) execStmtInOpenTxn(session *Session) { session.PreparedStatements.New(e) }

func (e *Executor) Prepare(session *Session) { session.resetForBatch(e) }

func (e *Executor) getDatabaseCache() *databaseCache {
	e.systemConfigMu.RLock()
	defer e.systemConfigMu.RUnlock()
	return e.databaseCache
}
