package dclfixed

import "sync"

// Config is the application's configuration.
type Config struct {
	Host string
	Port int
}

func (c *Config) load() {
	c.Host, c.Port = "localhost", 8080
}

// Registry creates the configuration on first use.
type Registry struct {
	once  sync.Once
	cfg   *Config
	loads int
}

// Config returns the configuration, creating it on first use.
func (r *Registry) Config() *Config {
	r.once.Do(func() {
		r.cfg = new(Config)
		r.cfg.load()
		r.loads++
	})
	return r.cfg
}
