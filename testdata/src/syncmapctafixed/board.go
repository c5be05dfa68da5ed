package syncmapctafixed

import "sync"

// Board keeps the best score of each player.
type Board struct {
	best sync.Map // player → int
}

// Submit records a score; the board keeps the player's best.
func (b *Board) Submit(player string, score int) {
	old, loaded := b.best.LoadOrStore(player, score)
	for loaded && old.(int) < score {
		if b.best.CompareAndSwap(player, old, score) {
			return
		}
		old, loaded = b.best.Load(player)
	}
}

// Best returns the player's best score (0 if none).
func (b *Board) Best(player string) int {
	v, ok := b.best.Load(player)
	if !ok {
		return 0
	}
	return v.(int)
}
