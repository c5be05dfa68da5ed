// Package kubernetes80284 reduces kubernetes/kubernetes#80284
// (https://github.com/kubernetes/kubernetes/pull/80284, fix a racing
// issue in client-go UpdateTransportConfig; issue #80269: data race in
// client go).
//
// The exec credential plugin's Authenticator is shared by every client
// made from the same config (it is cached). UpdateTransportConfig, called
// for each new client's transport, makes a rotating dialer and stores its
// CloseAll in a.onRotate without a.mu, which refreshCredsLocked reads
// under a.mu to close the old connections once the credentials rotate.
// Two clients made at once: two unordered writes of a.onRotate (and a
// write against a locked read), a data race.
//
// Upstream fix: UpdateTransportConfig stores a.onRotate under a.mu.
package kubernetes80284

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
