// Package kubernetes82550 reduces kubernetes/kubernetes#82550
// (https://github.com/kubernetes/kubernetes/pull/82550, fix racy
// lazyEcrProvider updates; issue #78164: kubelet panics in the ECR
// credential provider).
//
// LazyProvide creates the region's ECR provider on first use: it checks
// p.actualProvider, stores a new caching provider whose ecrProvider has
// no token getter yet, calls Enabled (which sets the getter), and reads
// p.actualProvider again to Provide. Two image pulls at once: if the
// second one's check sees nil before the first one's store, and its store
// comes between the first one's Enabled and Provide, the first one
// provides from the second one's provider, whose getter is still nil:
// nil pointer dereference, and the kubelet panics. An atomicity
// violation on p.actualProvider, which nothing locks.
//
// Upstream fix: LazyProvide creates the provider under a mutex, so one
// caller creates it and enables it before any caller provides from it.
package kubernetes82550

import "time"

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
	region         string
	regionURL      string
	actualProvider *CachingDockerConfigProvider
}

func (p *lazyEcrProvider) LazyProvide() *DockerConfigEntry {
	if p.actualProvider == nil {
		p.actualProvider = &CachingDockerConfigProvider{Provider: newEcrProvider(p.region, nil)}
		if !p.actualProvider.Enabled() {
			return nil
		}
	}
	entry := p.actualProvider.Provide(p.regionURL)[p.regionURL]
	return &entry
}
