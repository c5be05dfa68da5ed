package tally

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestMain reads the expected count from testdata/, relative to the package
// directory, and hands it to the tests in the environment.
func TestMain(m *testing.M) {
	b, err := os.ReadFile("testdata/want.txt")
	if err == nil {
		os.Setenv("TALLY_WANT", strings.TrimSpace(string(b)))
	}
	os.Exit(m.Run())
}

// twice adds to t from two goroutines at once.
func twice(t *Tally) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Add()
		}()
	}
	wg.Wait()
}

func TestTwice(t *testing.T) {
	want, err := strconv.Atoi(os.Getenv("TALLY_WANT"))
	if err != nil {
		t.Fatal("TestMain did not read testdata/want.txt")
	}
	var tl Tally
	twice(&tl)
	if tl.N() != want {
		t.Fatalf("N = %d, want %d", tl.N(), want)
	}
}
