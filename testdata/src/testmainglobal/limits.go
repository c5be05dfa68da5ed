package testmainglobal

// defaultMax is the limit until a configuration sets one.
func defaultMax() int { return 4 }

// maxConns is the number of connections admitted at once.
var maxConns = defaultMax()

// SetMax sets the limit.
func SetMax(n int) {
	maxConns = n // want "data race on testmainglobal\\.maxConns"
}

// Admit reports whether one more connection may open when open are.
func Admit(open int) bool {
	return open < maxConns
}
