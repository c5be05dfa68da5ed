package rangeleakfixed

import (
	"testing"
	"time"
)

func TestStoreEmpty(t *testing.T) {
	var got []string
	err := Store([]string{"a", "", "b"}, func(r string) { got = append(got, r) })
	if err != errEmpty {
		t.Errorf("Store = %v, want %v", err, errEmpty)
	}
}

func TestAudit(t *testing.T) {
	Audit("start")
	Audit("stop")
	for i := 0; i < 100 && Logged() < 2; i++ {
		time.Sleep(time.Millisecond)
	}
}
