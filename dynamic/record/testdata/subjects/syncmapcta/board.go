package syncmapcta

import "sync"

// Board keeps the best score of each player.
type Board struct {
	best sync.Map // player → int
}

// Submit records a score; the board keeps the player's best.
func (b *Board) Submit(player string, score int) {
	old, ok := b.best.Load(player) // want "atomicity violation on Board\\.best"
	if !ok || old.(int) < score {
		b.best.Store(player, score)
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
