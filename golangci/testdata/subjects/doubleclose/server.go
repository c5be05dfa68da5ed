package doubleclose

// Server runs until it is stopped.
type Server struct {
	quit    chan struct{}
	stopped bool
}

// New returns a running server.
func New() *Server { return &Server{quit: make(chan struct{})} }

// Done is closed when the server is stopped.
func (s *Server) Done() <-chan struct{} { return s.quit }

// Stop stops the server; it may be called more than once.
func (s *Server) Stop() {
	if !s.stopped { // want "data race on Server\\.stopped"
		s.stopped = true
		close(s.quit)
	}
}
