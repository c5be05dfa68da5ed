package dcl

import "sync"

// Config is the application's configuration.
type Config struct {
	Host string
	Port int
}

func (c *Config) load() {
	c.Host, c.Port = "localhost", 8080 // want "data race on Config\\.Port"
}

// Registry creates the configuration on first use.
type Registry struct {
	mu    sync.Mutex
	cfg   *Config
	loads int
}

// Config returns the configuration, creating it on first use.
func (r *Registry) Config() *Config {
	if r.cfg == nil { // want "data race on Registry\\.cfg"
		r.mu.Lock()
		if r.cfg == nil {
			r.cfg = new(Config)
			r.cfg.load()
			r.loads++
		}
		r.mu.Unlock()
	}
	return r.cfg
}
