package initwrite

// Server serves until Stop.
type Server struct{ stop chan struct{} }

// NewServer returns a server that has not started.
func NewServer() *Server { return &Server{stop: make(chan struct{})} }

// Serve blocks until Stop and returns nil, as a server shut down cleanly
// does.
func (s *Server) Serve() error {
	<-s.stop
	return nil
}

// Stop makes Serve return.
func (s *Server) Stop() { close(s.stop) }

// Start runs s in a goroutine that stores Serve's result in *err when
// Serve returns, and then closes done.
func Start(s *Server, err *error, done chan<- struct{}) {
	go func() {
		defer close(done)
		if *err = s.Serve(); *err != nil { // want "data race"
			return
		}
	}()
}
