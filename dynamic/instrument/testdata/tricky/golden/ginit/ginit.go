// Package ginit's assignments sit where no block can replace them: an if
// statement's init and a for statement's init and post. Each write is
// recorded after its right-hand side's reads, as the store happens.
package ginit

// X and Y are shared.
var X, Y int

func get() int { return Y }

// Set stores get()'s result in X in an if statement's init.
func Set() bool {
	if X = get(); X > 0 {
		return true
	}
	return false
}

// Loop counts X up in a for statement's init and post.
func Loop() int {
	n := 0
	for X = get(); X < 2; X = X + 1 {
		n++
	}
	return n
}
