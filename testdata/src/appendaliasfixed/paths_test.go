package appendaliasfixed

import (
	"slices"
	"testing"
	"time"
)

func TestPaths(t *testing.T) {
	prefix := make([]string, 0, 4)
	prefix = append(prefix, "srv")
	names := []string{"a", "b", "c"}
	got := Paths(prefix, len(names), func(i int) string {
		time.Sleep(time.Duration(i) * 5 * time.Millisecond) // lookup latency
		return names[i]
	})
	if want := []string{"srv/a", "srv/b", "srv/c"}; !slices.Equal(got, want) {
		t.Errorf("paths %q, want %q", got, want)
	}
}
