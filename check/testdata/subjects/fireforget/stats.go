package fireforget

// Stats counts hits.
type Stats struct {
	hits int
}

// HitAsync counts a hit in the background; the caller does not wait.
func (s *Stats) HitAsync() {
	go func() {
		s.hits++ // want "data race on Stats\\.hits"
	}()
}

// Hits returns the hits counted so far.
func (s *Stats) Hits() int {
	return s.hits
}
