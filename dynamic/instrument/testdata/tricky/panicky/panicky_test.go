package panicky

import (
	"os"
	"testing"
)

func TestStore(t *testing.T) {
	if Store(&pt{}) != 3 {
		t.Error("store")
	}
	if os.Getenv("PECANVET_CORPUS_FAIL") != "" {
		t.Errorf("calls=%d", calls) // a failure line after moved code
	}
}

func TestIndex(t *testing.T) {
	if Index([]int{1, 2}, 0) != 2 {
		t.Error("index")
	}
}

func TestPanics(t *testing.T) {
	if os.Getenv("PECANVET_CORPUS_PANIC") == "store" {
		Store(nil)
	}
	if os.Getenv("PECANVET_CORPUS_PANIC") == "index" {
		Index([]int{1, 2}, 5)
	}
}
