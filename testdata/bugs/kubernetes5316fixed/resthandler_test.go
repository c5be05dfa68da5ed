package kubernetes5316fixed

import (
	"testing"
	"time"
)

func TestFinishRequest(t *testing.T) {
	got, err := finishRequest(100*time.Millisecond, func() (string, error) {
		time.Sleep(time.Millisecond) // the storage call, well within the timeout
		return "pod", nil
	})
	if err != nil || got != "pod" {
		t.Errorf("finishRequest = %q, %v; want pod, nil", got, err)
	}
}
