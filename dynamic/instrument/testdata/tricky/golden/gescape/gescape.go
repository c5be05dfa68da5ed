// Package gescape has a local that escapes and one that does not.
package gescape

// Locals sums with a plain local and one a goroutine shares.
func Locals(n int) int {
	plain := 0
	for i := 0; i < n; i++ {
		plain += i
	}
	captured := 0
	done := make(chan bool)
	go func(p int) {
		captured += p
		done <- true
	}(plain)
	<-done
	return captured
}
