package grand

import "testing"

func TestDraws(t *testing.T) {
	t.Logf("draws: %s", Draws())
}
