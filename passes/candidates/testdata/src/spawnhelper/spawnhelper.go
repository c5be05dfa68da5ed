// Package spawnhelper starts its goroutines through a helper called twice:
// the go statement is spliced into Run's sequence twice, so the two
// goroutines it starts are paired.
package spawnhelper

type Stats struct{ hits int }

func (s *Stats) hit() { s.hits++ } // want `^candidate race RW: spawnhelper.go:8:27 spawnhelper.go:8:27$` `^candidate race WW: spawnhelper.go:8:27 spawnhelper.go:8:27$` `^candidate av RWW: spawnhelper.go:8:27 spawnhelper.go:8:27 spawnhelper.go:8:27$`

func start(s *Stats) { go s.hit() }

func Run(s *Stats) {
	start(s)
	start(s)
}
