package record

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestReadClock: the runtime's clock file beside a trace gives the test's
// recorded start; a missing or malformed one gives zero (the replay's
// clock then starts where it comes).
func TestReadClock(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "T.trace")
	if c := readClock(tr); !c.IsZero() {
		t.Fatalf("no file: %v, want zero", c)
	}
	want := time.Date(2026, 11, 29, 7, 38, 49, 300_000_000, time.UTC)
	os.WriteFile(tr+clockSuffix, []byte("1795937929300000000"), 0o644)
	if c := readClock(tr); !c.Equal(want) {
		t.Fatalf("read %v, want %v", c, want)
	}
	os.WriteFile(tr+clockSuffix, []byte("soon"), 0o644)
	if c := readClock(tr); !c.IsZero() {
		t.Fatalf("malformed: %v, want zero", c)
	}
}
