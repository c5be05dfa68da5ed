package ctxflagfixed

import (
	"errors"
	"sync"
)

// Errors returned by Handle.
var (
	ErrServerClosed = errors.New("ctxflag: server shutting down")
	ErrDBClosed     = errors.New("ctxflag: database is closed")
)

// DB is a key-value database.
type DB struct {
	rows   map[string]string
	closed bool
}

// Query returns the value of key.
func (db *DB) Query(key string) (string, error) {
	if db.closed {
		return "", ErrDBClosed
	}
	return db.rows[key], nil
}

// Close closes the database.
func (db *DB) Close() { db.closed = true }

// Server answers requests from its database.
type Server struct {
	mu           sync.RWMutex
	shuttingDown bool
	db           *DB
}

// New returns a server of rows.
func New(rows map[string]string) *Server { return &Server{db: &DB{rows: rows}} }

// Handle answers a request for key.
func (s *Server) Handle(key string) (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.shuttingDown {
		return "", ErrServerClosed
	}
	return s.db.Query(key)
}

// Shutdown stops accepting requests and closes the database.
func (s *Server) Shutdown() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shuttingDown = true
	s.db.Close()
}
