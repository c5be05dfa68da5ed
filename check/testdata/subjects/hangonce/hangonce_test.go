// Package hangonce is a test whose recorded run hangs for good and whose
// replays cannot: check's TestObservedHangGone. Its goroutine decides,
// outside any recorded operation (a file), whether to block for ever on
// a channel nobody sends on or to send to the test: the first run, which
// makes the file, hangs; every later one passes. A replay of the hung
// run's order then ends without hanging, and the observed hang must not
// be reported: the hang was not the order's.
package hangonce

import (
	"os"
	"testing"
)

func TestHangOnce(t *testing.T) {
	marker := os.Getenv("PECANVET_TEST_HANGONCE")
	if marker == "" {
		t.Skip("run by check's TestObservedHangGone, which names the marker file")
	}
	ch := make(chan int)
	never := make(chan int)
	go func() {
		if _, err := os.Stat(marker); err != nil {
			if err := os.WriteFile(marker, nil, 0o644); err != nil {
				panic(err)
			}
			<-never // the first run: nobody sends, and the test waits for ever
		}
		ch <- 1
	}()
	<-ch
}
