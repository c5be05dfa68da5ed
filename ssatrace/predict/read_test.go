package predict

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pecanvet/pecanvet/ssatrace/internal/gen"
	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

func TestReadPrefix(t *testing.T) {
	tr := gen.Large(gen.LargeOptions{Events: 1000, Seed: 3})
	path := filepath.Join(t.TempDir(), "t.trace")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.WriteBinary(f, tr); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got, cut, err := ReadPrefix(path, 100)
	if err != nil || !cut || len(got.Events) != 100 {
		t.Fatalf("max 100: err %v, cut %v, %d events", err, cut, len(got.Events))
	}
	got, cut, err = ReadPrefix(path, 1000)
	if err != nil || cut || len(got.Events) != 1000 {
		t.Fatalf("max 1000: err %v, cut %v, %d events", err, cut, len(got.Events))
	}
}
