// Command cmdtests starts a goroutine and has a test: the analyzer runs
// the test.
package main

import "fmt"

func sum() int {
	done := make(chan int)
	go func() { done <- 1 }()
	return <-done
}

func main() { fmt.Println(sum()) }
