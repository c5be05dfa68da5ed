package ctxflag

import "errors"

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
	if db.closed { // want "data race on DB\\.closed"
		return "", ErrDBClosed
	}
	return db.rows[key], nil
}

// Close closes the database.
func (db *DB) Close() { db.closed = true }

// Server answers requests from its database.
type Server struct {
	shuttingDown bool
	db           *DB
}

// New returns a server of rows.
func New(rows map[string]string) *Server { return &Server{db: &DB{rows: rows}} }

// Handle answers a request for key.
func (s *Server) Handle(key string) (string, error) {
	if s.shuttingDown { // want "data race on Server\\.shuttingDown" "atomic-set-serializability violation on Server\\.shuttingDown, DB\\.closed"
		return "", ErrServerClosed
	}
	return s.db.Query(key)
}

// Shutdown stops accepting requests and closes the database.
func (s *Server) Shutdown() {
	s.shuttingDown = true
	s.db.Close()
}
