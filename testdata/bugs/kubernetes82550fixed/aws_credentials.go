// Package kubernetes82550fixed is kubernetes82550 with the fix of
// https://github.com/kubernetes/kubernetes/pull/82550: LazyProvide
// creates and enables the provider under a mutex, so no caller provides
// from a provider that is not enabled yet.
package kubernetes82550fixed

import (
	"sync"
	"time"
)

// DockerConfigEntry is a registry's credentials.
type DockerConfigEntry struct{ Username, Password string }

// DockerConfig maps a registry to its credentials.
type DockerConfig map[string]DockerConfigEntry

type tokenGetter interface {
	GetAuthorizationToken() string
}

type ecrTokenGetter struct{ region string }

func (g *ecrTokenGetter) GetAuthorizationToken() string { return "token-" + g.region }

type ecrProvider struct {
	region string
	getter tokenGetter
}

func newEcrProvider(region string, getter tokenGetter) *ecrProvider {
	return &ecrProvider{region: region, getter: getter}
}

// Enabled creates the AWS session and the token getter.
func (p *ecrProvider) Enabled() bool {
	time.Sleep(time.Millisecond) // the session is created
	p.getter = &ecrTokenGetter{region: p.region}
	return true
}

func (p *ecrProvider) Provide(registry string) DockerConfig {
	return DockerConfig{registry: {Username: "AWS", Password: p.getter.GetAuthorizationToken()}}
}

// CachingDockerConfigProvider caches its provider's config.
type CachingDockerConfigProvider struct {
	Provider *ecrProvider
}

func (d *CachingDockerConfigProvider) Enabled() bool { return d.Provider.Enabled() }

func (d *CachingDockerConfigProvider) Provide(registry string) DockerConfig {
	return d.Provider.Provide(registry)
}

type lazyEcrProvider struct {
	mu             sync.Mutex
	region         string
	regionURL      string
	actualProvider *CachingDockerConfigProvider
}

func (p *lazyEcrProvider) LazyProvide() *DockerConfigEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.actualProvider == nil {
		p.actualProvider = &CachingDockerConfigProvider{Provider: newEcrProvider(p.region, nil)}
		if !p.actualProvider.Enabled() {
			return nil
		}
	}
	entry := p.actualProvider.Provide(p.regionURL)[p.regionURL]
	return &entry
}
