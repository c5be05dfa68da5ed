// Package kubernetes80284fixed is kubernetes80284 with the upstream fix
// of https://github.com/kubernetes/kubernetes/pull/80284:
// UpdateTransportConfig stores a.onRotate under a.mu.
package kubernetes80284fixed

import "sync"

// Dialer tracks the connections it dialed so they can be closed.
type Dialer struct {
	mu     sync.Mutex
	conns  int
	closed int
}

func NewDialer() *Dialer { return &Dialer{} }

func (d *Dialer) Dial() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.conns++
}

// CloseAll closes every connection the dialer made.
func (d *Dialer) CloseAll() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed += d.conns
	d.conns = 0
}

// Config is a client's transport config.
type Config struct{ Dial func() }

// Authenticator runs the exec plugin for credentials.
type Authenticator struct {
	mu          sync.Mutex
	cachedCreds string
	onRotate    func()
}

func newAuthenticator() *Authenticator { return &Authenticator{} }

func (a *Authenticator) UpdateTransportConfig(c *Config) {
	d := NewDialer()
	c.Dial = d.Dial
	a.mu.Lock()
	defer a.mu.Unlock()
	a.onRotate = d.CloseAll
}

// refreshCredsLocked runs the plugin; a.mu is held.
func (a *Authenticator) refreshCredsLocked(creds string) {
	old := a.cachedCreds
	a.cachedCreds = creds
	if old != "" && old != creds && a.onRotate != nil {
		a.onRotate()
	}
}

func (a *Authenticator) refreshCreds(creds string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.refreshCredsLocked(creds)
}
