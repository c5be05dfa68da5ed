// Package ssatrace is the event vocabulary shared by pecanvet's static and
// dynamic sides; this file embeds the recorder runtime's source.
//
// The recorder runtime (ssatrace/rt) and the trace model it writes
// (ssatrace/trace) are compiled into the user's test binary: the instrumenter
// (ssatrace/instrument) writes their source into a temporary module that the
// overlaid go.mod of the user's module requires (`go test -overlay`), so the
// user's module needs no dependency on pecanvet.
package ssatrace

import (
	"embed"
	"io/fs"
	"path"
	"strings"
)

//go:embed rt trace
var runtimeFS embed.FS

// RuntimeFiles returns the source of the recorder runtime: the non-test .go
// and .s files of ssatrace/rt and ssatrace/trace, keyed by their slash path
// relative to ssatrace ("rt/x.go", "trace/y.go"). Subdirectories (testdata)
// are not included.
func RuntimeFiles() (map[string][]byte, error) {
	files := make(map[string][]byte)
	for _, dir := range []string{"rt", "trace"} {
		ents, err := fs.ReadDir(runtimeFS, dir)
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			name := e.Name()
			if e.IsDir() || strings.HasSuffix(name, "_test.go") ||
				!(strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".s")) {
				continue
			}
			b, err := fs.ReadFile(runtimeFS, path.Join(dir, name))
			if err != nil {
				return nil, err
			}
			files[path.Join(dir, name)] = b
		}
	}
	return files, nil
}
