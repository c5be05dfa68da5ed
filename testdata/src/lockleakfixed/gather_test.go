package lockleakfixed

import (
	"errors"
	"testing"
	"time"
)

func TestGatherFailure(t *testing.T) {
	bad := func() ([]string, error) { return nil, errors.New("source down") }
	late := func() ([]string, error) {
		time.Sleep(5 * time.Millisecond)
		return []string{"x"}, nil
	}
	if _, err := Gather([]func() ([]string, error){bad, late}, 30*time.Millisecond); err == nil {
		t.Error("Gather with a failing source = nil error, want one")
	}
}
