// Command cmdnotests starts a goroutine and has no tests: the analyzer
// has nothing to run for it (no test, and no driver for a main package).
package main

import "fmt"

func main() {
	done := make(chan int)
	go func() { done <- 1 }()
	fmt.Println(<-done)
}
