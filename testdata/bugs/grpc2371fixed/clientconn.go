// Package grpc2371fixed is grpc2371 with the upstream fix of
// https://github.com/grpc/grpc-go/pull/2371: handleServiceConfig returns
// ErrClientConnClosing, under cc.mu, once Close has run.
package grpc2371fixed

import (
	"errors"
	"sync"
)

// ErrClientConnClosing is returned by a closed ClientConn's methods.
var ErrClientConnClosing = errors.New("grpc: the client connection is closing")

// ccBalancerWrapper sits between the ClientConn and its balancer.
type ccBalancerWrapper struct {
	mu     sync.Mutex
	addrs  []string
	closed bool
}

func (ccb *ccBalancerWrapper) handleResolvedAddrs(addrs []string) {
	ccb.mu.Lock()
	defer ccb.mu.Unlock()
	ccb.addrs = addrs
}

func (ccb *ccBalancerWrapper) close() {
	ccb.mu.Lock()
	defer ccb.mu.Unlock()
	ccb.closed = true
}

// ccResolverWrapper runs the resolver's watcher goroutine.
type ccResolverWrapper struct {
	cc     *ClientConn
	scCh   chan string
	done   chan struct{}
	exited chan struct{}
}

// NewServiceConfig is the resolver reporting a service config.
func (ccr *ccResolverWrapper) NewServiceConfig(sc string) {
	select {
	case <-ccr.scCh: // drop an update not yet handled
	default:
	}
	ccr.scCh <- sc
}

func (ccr *ccResolverWrapper) watcher() {
	defer close(ccr.exited)
	for {
		select {
		case <-ccr.done:
			return
		case sc := <-ccr.scCh:
			ccr.cc.handleServiceConfig(sc)
		}
	}
}

func (ccr *ccResolverWrapper) close() { close(ccr.done) }

// ClientConn is a client connection.
type ClientConn struct {
	mu              sync.Mutex
	conns           map[string]bool // nil once closed
	sc              string
	curAddresses    []string
	balancerWrapper *ccBalancerWrapper
	resolverWrapper *ccResolverWrapper
}

// Dial returns a connection to target and starts its resolver.
func Dial(target string) *ClientConn {
	cc := &ClientConn{
		conns:           map[string]bool{target: true},
		curAddresses:    []string{target},
		balancerWrapper: &ccBalancerWrapper{},
	}
	cc.resolverWrapper = &ccResolverWrapper{
		cc:     cc,
		scCh:   make(chan string, 1),
		done:   make(chan struct{}),
		exited: make(chan struct{}),
	}
	go cc.resolverWrapper.watcher()
	return cc
}

func (cc *ClientConn) handleServiceConfig(js string) error {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.conns == nil {
		// Close has set balancerWrapper to nil.
		return ErrClientConnClosing
	}
	cc.sc = js
	// The new config may switch the balancer: tell it the addresses.
	cc.balancerWrapper.handleResolvedAddrs(cc.curAddresses)
	return nil
}

// Close tears the connection down.
func (cc *ClientConn) Close() error {
	cc.mu.Lock()
	if cc.conns == nil {
		cc.mu.Unlock()
		return ErrClientConnClosing
	}
	cc.conns = nil
	rWrapper := cc.resolverWrapper
	cc.resolverWrapper = nil
	bWrapper := cc.balancerWrapper
	cc.balancerWrapper = nil
	cc.mu.Unlock()
	rWrapper.close()
	bWrapper.close()
	return nil
}
